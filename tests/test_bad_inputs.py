"""Bad inputs across every command and the Python API: each is refused with one line naming the field or path and
what is allowed, the usual exit status (2, or 130 after Ctrl-C), no traceback, and nothing written.

The table below holds the command-line cases; the Python API cases follow it, then a property test of the lineup
parser on arbitrary text.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kemps_sim.cli import main
from kemps_sim.engine import EngineConfig, simulate_match
from kemps_sim.errors import ConfigError, KempsError
from kemps_sim.lineup import MAX_LINEUP_CHARS, parse_entry, resolve_lineup, split_lineup
from kemps_sim.presets import load_rules
from kemps_sim.profiles import DEFAULT_PROFILE, PlayerProfile
from kemps_sim.results import EndReason
from kemps_sim.sweep import run_sweep
from kemps_sim.table import InvariantError, TableState
from kemps_sim.timing import ExGaussian, Exponential, Fixed, Gamma, LogNormal
from tests.sweeps import quick_data, quick_spec, toml_text

LINUX_PROC = Path("/proc/self").is_dir()  # /proc: a folder no file can be created in, even by root
needs_proc = pytest.mark.skipif(not LINUX_PROC, reason="needs Linux /proc")

EMPTY_RULES = r"sets no knob and names no preset; give `preset = \"standard\"` or knobs"
INTERRUPTED = r"interrupted \(Ctrl-C\)"


def _spec(tmp: Path, name: str, axes: dict | None = None, **changes: object) -> str:
    """A quick sweep spec file in ``tmp`` with some [base] or [sweep] values changed; its output under ``tmp``."""
    data = quick_data(tmp / "out", matches=2, axes=axes or {"rules.double_kemps": [False]})
    for key, value in changes.items():
        table, _, field = key.partition("__")
        data[table][field] = value
    path = tmp / name
    path.write_text(toml_text(data), encoding="utf-8")
    return str(path)


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """Bad input files: empty, comment-only and empty-[rules] TOML, a binary file, a folder named like a file."""
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    (tmp_path / "comments.toml").write_text("# only a comment\n\n# and another\n", encoding="utf-8")
    (tmp_path / "empty_table.toml").write_text("# the table names nothing\n[rules]\n", encoding="utf-8")
    (tmp_path / "binary.toml").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "plainfolder").mkdir()
    (tmp_path / "syntax.toml").write_text("double_kemps = = true\n", encoding="utf-8")
    (tmp_path / "afile").write_text("a file, not a folder\n", encoding="utf-8")
    _spec(tmp_path, "spec_empty_rules.toml", base__rules=str(tmp_path / "empty.toml"))
    _spec(tmp_path, "spec_bad_lineup.toml", base__lineup="collector(threshold=0.5)+(2)")
    _spec(tmp_path, "spec_fast_hand.toml", axes={"profile.reach.median": [0.3, 0.001]})
    _spec(tmp_path, "spec_impossible_output.toml", sweep__output=str(tmp_path / "afile" / "out"))
    _spec(tmp_path, "spec_ok.toml")
    return tmp_path


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small finished sweep for the report cases."""
    folder = tmp_path_factory.mktemp("bad_inputs") / "results"
    run_sweep(quick_spec(folder, matches=2, axes={"rules.double_kemps": [False]}), workers=1, progress=False)
    return folder


def _interrupt(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


#: (id, argv with {tmp} and {results} filled in, exit status, pattern the one stderr line must match,
#:  an attribute to replace with a function raising KeyboardInterrupt, or None)
CASES: list[tuple[str, list[str], int, str, str | None]] = [
    # rules
    ("rules-empty-file", ["rules", "{tmp}/empty.toml"], 2, r"rules file '.*empty\.toml': " + EMPTY_RULES, None),
    ("rules-comments-only", ["rules", "{tmp}/comments.toml"], 2, EMPTY_RULES, None),
    ("rules-empty-table", ["rules", "{tmp}/empty_table.toml"], 2, EMPTY_RULES, None),
    ("rules-binary", ["rules", "{tmp}/binary.toml"], 2, r"binary\.toml': not a text file \(not UTF-8\); give a TOML",
     None),
    ("rules-folder-toml", ["rules", "{tmp}/folder.toml"], 2, r"folder\.toml': is a folder, not a TOML file", None),
    ("rules-folder-path", ["rules", "{tmp}/plainfolder/"], 2, r"plainfolder': is a folder, not a TOML file", None),
    ("rules-missing", ["rules", "{tmp}/missing.toml"], 2, r"missing\.toml': no such file", None),
    ("rules-bad-toml", ["rules", "{tmp}/syntax.toml"], 2, r"syntax\.toml': not valid TOML", None),
    ("rules-unknown-preset", ["rules", "nosuch"], 2, r"rules\.preset = 'nosuch': unknown preset; allowed presets",
     None),
    ("rules-unknown-knob", ["rules", "--set", "dubble_kemps=true"], 2,
     r"rules\.dubble_kemps = true: unknown rule knob \(did you mean double_kemps\?\); allowed knobs", None),
    ("rules-bad-knob-value", ["rules", "--set", "double_kemps=3"], 2, r"double_kemps = 3", None),
    ("rules-odd-players", ["rules", "--players", "5"], 2, r"players = 5", None),
    ("rules-set-no-value", ["rules", "--set", "double_kemps"], 2, r"--set 'double_kemps': must be KNOB=VALUE", None),
    ("rules-ctrl-c", ["rules"], 130, INTERRUPTED, "kemps_sim.cli.rules.resolve_any"),
    # play
    ("play-lineup-trailing", ["play", "--lineup", "collector(threshold=0.5)+(2)"], 2,
     r"lineup entry 'collector\(threshold=0\.5\)\+\(2\)': the parameters must be one \(\.\.\.\) after the name.*"
     r"at character 25", None),
    ("play-lineup-open", ["play", "--lineup", "collector(x=1"], 2,
     r"lineup 'collector\(x=1': a '\(' without its '\)' at character 10", None),
    ("play-lineup-close", ["play", "--lineup", "collector)"], 2, r"a '\)' without its '\(' at character 10", None),
    ("play-lineup-positional", ["play", "--lineup", "collector(0.5)"], 2,
     r"parameters must be named, e\.g\. collector\(threshold=0\.9\) \(at character 11\)", None),
    ("play-lineup-too-long", ["play", "--lineup", "collector," * 400], 2,
     rf"lineup '.*': 4000 characters; allowed: at most {MAX_LINEUP_CHARS}", None),
    ("play-lineup-deep", ["play", "--lineup", "x(a=" + "[" * 900 + "]" * 900 + ")"], 2,
     r"parameters must be name=value with literal values", None),
    ("play-lineup-not-literal", ["play", "--lineup", "collector(threshold=__import__)"], 2,
     r"threshold = \.\.\.: the value must be a literal", None),
    ("play-lineup-unknown-agent", ["play", "--lineup", "nosuch"], 2, r"'nosuch': unknown agent; allowed agents", None),
    ("play-lineup-unknown-param", ["play", "--lineup", "collector(nope=1)"], 2,
     r"unknown parameter 'nope'; parameters: ", None),
    ("play-lineup-count", ["play", "--lineup", "collector,collector,collector"], 2,
     r"lineup has 3 entries for 4 players; give 1, 2 \(one per pair\) or 4", None),
    ("play-rules-empty", ["play", "--rules", "{tmp}/empty.toml"], 2, EMPTY_RULES, None),
    ("play-rules-binary", ["play", "--rules", "{tmp}/binary.toml"], 2, r"not a text file", None),
    ("play-seed", ["play", "--seed", "-1"], 2, r"--seed -1: must be a whole number >= 0", None),
    ("play-timeline-suffix", ["play", "--timeline", "{tmp}/t.txt"], 2, r"the file name must end in \.png", None),
    ("play-timeline-under-file", ["play", "--timeline", "{tmp}/afile/t.png"], 2, r"folder '.*afile' does not exist",
     None),
    ("play-timeline-folder", ["play", "--timeline", "{tmp}/folder.toml"], 2, r"must end in \.png", None),
    ("play-round-zero", ["play", "--timeline", "{tmp}/t.png", "--round", "0"], 2,
     r"--round 0: rounds are numbered from 1", None),
    ("play-ctrl-c", ["play", "--quiet"], 130, INTERRUPTED, "kemps_sim.cli.play.simulate_match"),
    # sweep
    ("sweep-missing-spec", ["sweep", "{tmp}/nospec.toml"], 2, r"sweep spec '.*nospec\.toml': no such file", None),
    ("sweep-empty-rules", ["sweep", "{tmp}/spec_empty_rules.toml", "--check"], 2, EMPTY_RULES, None),
    ("sweep-bad-lineup", ["sweep", "{tmp}/spec_bad_lineup.toml", "--check"], 2,
     r"collector\(threshold=0\.5\)\+\(2\)'.*at character 25", None),
    ("sweep-fast-hand", ["sweep", "{tmp}/spec_fast_hand.toml", "--check"], 2,
     r"profile\.reach\.median = 0\.001: below 0\.05 s, faster than any human hand movement.*allowed: >= 0\.05",
     None),
    ("sweep-output-under-file", ["sweep", "{tmp}/spec_impossible_output.toml", "--serial", "--no-progress"], 2,
     r"'.*afile.*': not a directory", None),
    ("sweep-workers", ["sweep", "{tmp}/spec_ok.toml", "--workers", "0"], 2, r"--workers 0: must be a whole number >= 1",
     None),
    ("sweep-chunk", ["sweep", "{tmp}/spec_ok.toml", "--chunk", "0"], 2, r"--chunk 0: must be a whole number >= 1",
     None),
    ("sweep-until-ci", ["sweep", "{tmp}/spec_ok.toml", "--until-ci", "0.9"], 2,
     r"--until-ci 0\.9: must be a half-width above 0 and at most 0\.5", None),
    ("sweep-metric", ["sweep", "{tmp}/spec_ok.toml", "--until-ci", "0.1", "--metric", "nosuch"], 2,
     r"--metric nosuch: ", None),
    # report
    ("report-csv-under-file", ["report", "{results}", "--csv", "{tmp}/afile/s.csv"], 2,
     r"--csv '.*s\.csv': the folder '.*afile' does not exist", None),
    ("report-csv-is-folder", ["report", "{results}", "--csv", "{tmp}/plainfolder"], 2,
     r"'.*plainfolder': is a directory", None),
    ("report-confidence", ["report", "{results}", "--confidence", "2"], 2,
     r"--confidence 2\.0: must be strictly between 0 and 1", None),
    ("report-by", ["report", "{results}", "--by", "nosuch"], 2, r"nosuch", None),
    ("report-ctrl-c", ["report", "{results}"], 130, INTERRUPTED, "kemps_sim.cli.report.load_folder"),
    # tournament
    ("tournament-bad-lineup", ["tournament", "collector", "x(", "--serial", "--output", "{tmp}/t"], 2,
     r"a '\(' without its '\)' at character 2", None),
    ("tournament-matches", ["tournament", "collector", "random", "--matches", "0", "--output", "{tmp}/t"], 2,
     r"--matches 0: must be a whole number >= 1", None),
    ("tournament-confidence", ["tournament", "collector", "random", "--confidence", "1.5", "--output", "{tmp}/t"], 2,
     r"--confidence 1\.5: must be between 0 and 1", None),
    ("tournament-rules-empty", ["tournament", "collector", "random", "--rules", "{tmp}/empty.toml", "--output",
                                "{tmp}/t"], 2, EMPTY_RULES, None),
    ("tournament-output-under-file", ["tournament", "collector", "random", "--matches", "1", "--serial",
                                      "--no-progress", "--output", "{tmp}/afile/t"], 2, r"'.*afile.*': not a directory",
     None),
    ("tournament-plots-file", ["tournament", "collector", "random", "--plots", "{tmp}/afile", "--output", "{tmp}/t"],
     2, r"--plots '.*afile': exists and is not a folder", None),
]

PROC_CASES: list[tuple[str, list[str], int, str, str | None]] = [
    ("play-timeline-unwritable", ["play", "--timeline", "/proc/kemps_t.png"], 2,
     r"--timeline /proc/kemps_t\.png: cannot write into folder '/proc'", None),
    ("sweep-output-unwritable", ["sweep", "{tmp}/spec_ok.toml", "--serial", "--no-progress", "--output",
                                 "/proc/kemps_out"], 2, r"'/proc/kemps_out': no such file or directory", None),
    ("report-csv-unwritable", ["report", "{results}", "--csv", "/proc/kemps_s.csv"], 2,
     r"'/proc/kemps_s\.csv': no such file or directory", None),
    ("tournament-output-unwritable", ["tournament", "collector", "random", "--matches", "1", "--serial",
                                      "--no-progress", "--output", "/proc/kemps_t"], 2,
     r"'/proc/kemps_t': no such file or directory", None),
]


def _files(*folders: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder below ``folders`` with its size and modification time."""
    out = {}
    for folder in folders:
        for path in [folder, *folder.rglob("*")]:
            stat = path.stat()
            out[str(path)] = (stat.st_size if path.is_file() else 0, stat.st_mtime_ns)
    return out


def _run_case(argv, status, pattern, interrupt, inputs, results, capsys, monkeypatch) -> None:
    monkeypatch.chdir(inputs)
    argv = [a.format(tmp=inputs, results=results) for a in argv]
    if interrupt:
        monkeypatch.setattr(interrupt, _interrupt)
    before = _files(inputs, results)
    capsys.readouterr()
    assert main(argv) == status
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith(f"kemps-sim {argv[0]}: "), lines[0]
    assert re.search(pattern, lines[0]), (pattern, lines[0])
    assert _files(inputs, results) == before, "something was written"
    if argv[0] == "play":
        assert not list(inputs.glob("*.png"))


@pytest.mark.parametrize(("argv", "status", "pattern", "interrupt"),
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_bad_command_line_input_is_one_line_and_writes_nothing(argv, status, pattern, interrupt, inputs, results,
                                                                capsys, monkeypatch):
    _run_case(argv, status, pattern, interrupt, inputs, results, capsys, monkeypatch)


@needs_proc
@pytest.mark.parametrize(("argv", "status", "pattern", "interrupt"),
                         [pytest.param(*case[1:], id=case[0]) for case in PROC_CASES])
def test_an_unwritable_place_is_one_line_and_writes_nothing(argv, status, pattern, interrupt, inputs, results,
                                                             capsys, monkeypatch):
    _run_case(argv, status, pattern, interrupt, inputs, results, capsys, monkeypatch)


def test_there_are_at_least_forty_bad_inputs():
    assert len(CASES) + len(PROC_CASES) + len(API_CASES) >= 40


@pytest.mark.parametrize(("argv", "pattern"), [
    (["rules", "{tmp}/folder.toml"], r"is a folder"),
    (["rules", "{tmp}/empty.toml"], EMPTY_RULES),
    (["play", "--lineup", "collector(threshold=0.5)+(2)"], r"at character 25"),
])
def test_a_real_process_prints_one_line_and_exits_2(argv, pattern, inputs):
    argv = [a.format(tmp=inputs) for a in argv]
    done = subprocess.run([sys.executable, "-m", "kemps_sim", *argv], capture_output=True, text=True, cwd=inputs,
                          timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    assert re.search(pattern, done.stderr) and done.stdout == ""


# The Python API ----------------------------------------------------------------------------------------------------
def _broken_check(self: TableState) -> None:
    raise InvariantError("conservation broken: 51 cards placed, 52 in the pack")


API_CASES: list[tuple[str, object, type[BaseException], str]] = [
    ("reaction-mu", lambda: PlayerProfile(reaction=ExGaussian(1e-6, 0.0, 0.06)), ConfigError,
     r"^profile\.reaction\.mu = 1e-06: below 0\.05 s, faster than any human reaction \(simple reaction times are "
     r"about 0\.2 s\); allowed: >= 0\.05$"),
    ("reach-median", lambda: DEFAULT_PROFILE.with_params({"reach.median": 0.001}), ConfigError,
     r"^profile\.reach\.median = 0\.001: below 0\.05 s.*allowed: >= 0\.05$"),
    ("speech-fixed", lambda: PlayerProfile(speech=Fixed(0.02)), ConfigError,
     r"^profile\.speech\.value = 0\.02: below 0\.05 s, faster than any spoken response"),
    ("reaction-exponential", lambda: PlayerProfile(reaction=Exponential(0.01)), ConfigError,
     r"^profile\.reaction\.mean = 0\.01: below 0\.05 s"),
    ("gesture-gamma", lambda: PlayerProfile(gesture_time=Gamma(0.001, 2.0)), ConfigError,
     r"^profile\.gesture_time\.mean = 0\.001: below 0\.01 s.*allowed: >= 0\.01$"),
    ("patience-lognormal", lambda: PlayerProfile(patience=LogNormal(1e-4, 0.4)), ConfigError,
     r"^profile\.patience\.median = 0\.0001: below 0\.01 s"),
    ("card-read-mapping", lambda: PlayerProfile.from_mapping({"card_read": {"mean": 1e-6}}), ConfigError,
     r"^profile\.card_read\.mean = 1e-06: below 0\.01 s"),
    ("perception-replace", lambda: DEFAULT_PROFILE.replace(perception_latency__mean=0.0001), ConfigError,
     r"^profile\.perception_latency\.mean = 0\.0001: below 0\.01 s"),
    ("lineup-trailing", lambda: parse_entry("collector(threshold=0.5)+(2)"), ConfigError, r"at character 25"),
    ("lineup-too-long", lambda: resolve_lineup("x" * 5000, 4), ConfigError, r"5000 characters; allowed: at most"),
    ("lineup-unbalanced", lambda: split_lineup("a(b(c)"), ConfigError, r"a '\(' without its '\)' at character 2"),
    ("lineup-double-star", lambda: parse_entry("collector(**{'a': 1})"), ConfigError, r"not \*\*mapping"),
    ("match-lineup", lambda: simulate_match("standard", "collector(threshold=0.5)+(2)"), ConfigError,
     r"at character 25"),
    ("match-errors", lambda: simulate_match("standard", "collector", errors="ignore"), ConfigError,
     r"^errors = 'ignore': must be 'raise' or 'record'$"),
]


@pytest.mark.parametrize(("make", "kind", "pattern"), [pytest.param(*case[1:], id=case[0]) for case in API_CASES])
def test_bad_python_input_raises_one_line(make, kind, pattern):
    with pytest.raises(kind) as caught:
        make()
    assert "\n" not in str(caught.value)
    assert re.search(pattern, str(caught.value)), str(caught.value)


@pytest.mark.parametrize("name", ["empty.toml", "comments.toml", "empty_table.toml", "binary.toml", "folder.toml"])
def test_load_rules_refuses_bad_files(name, inputs):
    with pytest.raises(ConfigError) as caught:
        load_rules(inputs / name)
    assert "\n" not in str(caught.value) and str(caught.value).startswith("rules file ")


def test_a_rules_file_naming_a_preset_only_is_accepted(tmp_path):
    (tmp_path / "p.toml").write_text('preset = "standard"\n', encoding="utf-8")
    assert load_rules(tmp_path / "p.toml") == load_rules("standard")


def test_strict_invariant_failure_names_seed_round_and_time(monkeypatch):
    monkeypatch.setattr(TableState, "check", _broken_check)
    strict = EngineConfig(strict=True)
    with pytest.raises(InvariantError) as caught:
        simulate_match("standard", "collector", seed=11, config=strict)
    text = str(caught.value)
    # Broken while dealing: no agent has decided yet.
    assert re.match(r"^invariant broken: seed 11, round 1, simulated time \d+\.\d{3} s: conservation broken", text)
    result = simulate_match("standard", "collector", seed=11, config=strict, errors="record")
    assert result.end_reason == EndReason.AGENT_ERROR.value and result.error == text
    assert result.winners == ()


def test_strict_invariant_failure_mid_round_names_the_agent_and_seat_that_decided_last(monkeypatch):
    real, calls = TableState.check, []

    def breaks_on_the_first_swap(self: TableState) -> None:
        calls.append(1)
        if len(calls) > 3:  # after the deal's checks: the first change of the table in play
            _broken_check(self)
        real(self)

    monkeypatch.setattr(TableState, "check", breaks_on_the_first_swap)
    result = simulate_match("standard", "collector", seed=11, config=EngineConfig(strict=True), errors="record")
    assert re.match(r"^invariant broken: seed 11, round 1, simulated time \d+\.\d{3} s, last decision by agent "
                    r"collector at seat \d: conservation broken", result.error), result.error


# The lineup parser on any text -------------------------------------------------------------------------------------
_LINEUP_ALPHABET = st.sampled_from([*"()[]{}=,+*.'\" _-abc01", "collector", "random", "p_swap", "0.5", "\n"])
_lineup_like = st.lists(_LINEUP_ALPHABET, max_size=40).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=200), _lineup_like))
def test_the_lineup_parser_accepts_or_refuses_any_text_in_one_line(text):
    try:
        resolve_lineup(text, 4)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc)
    except KempsError as exc:  # pragma: no cover - a KempsError that is not a ConfigError is a failure too
        pytest.fail(f"{type(exc).__name__}: {exc}")
