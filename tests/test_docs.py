"""The documentation site: every public function and class its API reference shows has a docstring, and the site
builds with MkDocs in strict mode (every warning, including a broken internal link, is an error)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import headless_chromium

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"


def documented_modules() -> list[str]:
    """The modules the API reference pages render (their ``::: module`` lines)."""
    return [m for page in sorted(REFERENCE.glob("*.md")) for m in re.findall(r"^::: (\S+)", page.read_text(), re.M)]


def _has_doc(owner: type, name: str) -> bool:
    """Whether a class attribute has a docstring, inherited ones included (a property's from any base)."""
    for base in owner.__mro__:
        found = vars(base).get(name)
        if isinstance(found, property) and (found.__doc__ or "").strip():
            return True
    return bool((inspect.getdoc(getattr(owner, name)) or "").strip())


def undocumented() -> list[str]:
    """Every public function, class and method of the referenced modules without a docstring."""
    missing = []
    for name in documented_modules():
        module = importlib.import_module(name)
        public = getattr(module, "__all__", None)
        if public is None:
            public = [n for n, o in vars(module).items() if not n.startswith("_")
                      and getattr(o, "__module__", None) == name]
        for attr in public:
            obj = getattr(module, attr)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if not (inspect.getdoc(obj) or "").strip():
                missing.append(f"{name}.{attr}")
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    plain = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
                    if not member.startswith("_") and inspect.isfunction(plain) and not _has_doc(obj, member):
                        missing.append(f"{name}.{attr}.{member}")
    return sorted(set(missing))


def test_the_reference_covers_the_public_api_and_every_item_has_a_docstring():
    modules = documented_modules()
    assert {"kemps_sim.engine.match", "kemps_sim.sweep", "kemps_sim.stats", "kemps_sim.krepet",
            "kemps_sim.replay"} <= set(modules)
    assert undocumented() == []


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The site built once for this module, strictly, with the notebooks rendered but not run again here
    (tests/test_notebooks.py runs each of them), and what the build said."""
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but MkDocs is missing: the README's test command installs the docs extra")
        pytest.skip("MkDocs is not installed (pip install -e '.[docs]')")
    folder = tmp_path_factory.mktemp("site")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "KEMPS_NOTEBOOK_SIZE": "small", "KEMPS_DOCS_EXECUTE": "false", "PATH": path}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-4000:]
    return folder, done.stderr


@pytest.fixture(scope="module")
def site(built) -> Path:
    return built[0]


NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


def test_the_build_says_what_it_does_with_the_notebooks(built):
    said = built[1]
    assert f"notebooks: {len(NOTEBOOKS)} rendered without running them (KEMPS_DOCS_EXECUTE=false)" in said
    assert [name for name in NOTEBOOKS if f"notebooks/{name} done in " not in said] == []


def load_hooks():
    spec = importlib.util.spec_from_file_location("kemps_docs_hooks", ROOT / "scripts" / "mkdocs_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    return hooks


def test_run_notebooks_are_kept_by_size_and_code_apart_from_unrun_ones(monkeypatch, tmp_path):
    """A build that does not run the notebooks (the test suite's) must not evict the pages a build ran, and a
    page run by older code or at another size must never be served as current."""
    pytest.importorskip("mkdocs")
    from mkdocs.config import load_config

    hooks = load_hooks()

    def cache_dir(execute: str, size: str) -> Path:
        monkeypatch.setenv("KEMPS_DOCS_EXECUTE", execute)
        monkeypatch.setenv("KEMPS_NOTEBOOK_SIZE", size)
        config = load_config(str(ROOT / "mkdocs.yml"))
        plugin = config.plugins["mkdocs-jupyter"]
        plugin.config["cache_dir"] = str(tmp_path / "cache")
        hooks.on_config(config)
        return Path(plugin.config["cache_dir"])

    unrun, small, full = cache_dir("false", "small"), cache_dir("true", "small"), cache_dir("true", "full")
    assert len({unrun, small, full}) == 3 and all(p.parent == tmp_path / "cache" for p in (unrun, small, full))
    assert small.name == f"run-small-{hooks.code_fingerprint()}"
    # the fingerprint follows the code: a changed file gives another one
    code = tmp_path / "repo"
    (code / "kemps_sim").mkdir(parents=True)
    (code / "kemps_sim" / "rules.py").write_text("A = 1\n")
    monkeypatch.setattr(hooks, "ROOT", code)
    before = hooks.code_fingerprint()
    (code / "kemps_sim" / "rules.py").write_text("A = 2\n")
    assert hooks.code_fingerprint() != before


def test_the_site_builds_strictly(site):
    for page in ("index.html", "rules/index.html", "gallery/index.html", "reference/engine/index.html",
                 "notebooks/07_krepet/index.html"):
        assert (site / page).is_file(), page
    assert "simulate_match" in (site / "reference" / "engine" / "index.html").read_text()


#: What a docstring's Sphinx role looks like when it reaches a page unconverted: the role before its code span
#: (``:func:<code>run</code>``), or Sphinx's ``~`` prefix kept in the text (``<code>~kemps_sim.gestures</code>``).
LITERAL_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):(?:<code>|`)|<code>~[A-Za-z_]|`~kemps_sim")
#: A cross-reference the site could not link: autorefs leaves it as code in a span titled with the target.
UNLINKED = re.compile(r'<span title="([^"]+)"><code>')
LINK = re.compile(r'<a class="autorefs autorefs-internal"[^>]*href="([^"]+)"[^>]*><code>([^<]+)</code></a>')


def _exists(path: str) -> bool:
    """Whether a dotted path names a real module or object (the longest importable module, then attributes)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name) and not (inspect.isclass(obj) and name in getattr(obj, "__annotations__", {})):
                return False
            obj = getattr(obj, name, None)
        return True
    return False


def test_the_api_cross_references_are_links_and_none_is_left_as_written(site):
    pages = {page.relative_to(site).as_posix(): page.read_text() for page in site.rglob("*.html")}
    literal = sorted({f"{name}: {m.group(0)}" for name, text in pages.items() for m in LITERAL_ROLE.finditer(text)})
    assert literal == []
    reference = "".join(text for name, text in pages.items() if name.startswith("reference/"))
    links = LINK.findall(reference)
    # The human model's module docstring names the three modules the page renders after it; each is a link there.
    human = dict((shown, href) for href, shown in LINK.findall(pages["reference/human/index.html"]))
    assert {human.get(name) for name in ("profiles", "perception", "gestures")} == {
        "#kemps_sim.profiles", "#kemps_sim.perception", "#kemps_sim.gestures"}
    assert len(links) >= 100
    # A target left unlinked is one the site does not render (a private helper, an error class, a library's
    # function), named by its full path: never a name the docstring's scope failed to resolve.
    unresolved = sorted({target for text in pages.values() for target in UNLINKED.findall(text)
                         if not _exists(target)})
    assert unresolved == []


# Code blocks in a real browser ---------------------------------------------------------------------------------

#: For every code block of a page (Material's, and a notebook cell's): how many pieces of its text lie under its
#: copy button or outside the block (hidden, or behind a scroll bar), with the first such text.
HIDDEN_CODE = """
const found = [];
document.querySelectorAll('pre').forEach((pre, i) => {
  const code = pre.querySelector(':scope > code') || (pre.closest('.highlight-ipynb, .jp-RenderedText') && pre);
  if (!code) return;
  const cell = pre.closest('.CodeMirror');
  const button = pre.querySelector('.md-code__nav, .md-clipboard')
    || (cell && cell.querySelector('.zeroclipboard-container'));
  const b = button ? button.getBoundingClientRect() : null;
  const box = pre.getBoundingClientRect();
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  let under = 0, outside = 0, text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width === 0) continue;
      const below = b && b.width && r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;
      const beyond = r.right > box.right + 1 || r.left < box.left - 1;
      if (below || beyond) { under += below; outside += beyond; text = text || node.textContent.trim(); }
    }
  }
  if (under || outside) found.push(`block ${i}: ${under} under the copy button, ${outside} outside: ${text}`);
});
return found;
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = headless_chromium(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


@pytest.mark.parametrize("width", [1280, 480], ids=["desktop", "phone"])
def test_no_code_is_hidden_under_the_copy_button_or_off_the_block(site, browser, width):
    browser.set_window_size(width, 900)
    assert browser.execute_script("return window.innerWidth") == width
    pages = sorted(p for p in site.rglob("index.html") if "<pre" in p.read_text())
    assert len(pages) >= 10
    hidden = {}
    for page in pages:
        browser.get(page.as_uri())
        hidden.update({f"{page.relative_to(site).parent}/ {item}": 1 for item in browser.execute_script(HIDDEN_CODE)})
    assert list(hidden) == []


def test_the_metric_tables_of_the_statistics_page_are_the_registrys():
    """docs/statistics.md holds the metric tables as the registry writes them, and so names every metric with its
    description (regenerate with ``kemps_sim.metrics.docs.metric_tables()`` after changing a metric)."""
    from kemps_sim.metrics import every
    from kemps_sim.metrics.docs import BEGIN, END, metric_tables

    page = (ROOT / "docs" / "statistics.md").read_text()
    assert page.count(BEGIN) == 1 and page.count(END) == 1
    assert page[page.index(BEGIN):page.index(END) + len(END)] == metric_tables()
    for metric in every():  # every column as its game names it (Krepet's playerN_ for the catalogue's pairN_)
        column = metric.column or metric.name
        assert f"| {metric.description} |" in page and column.replace("pairN_", "playerN_") in page, metric.name
