"""A match told as a readable play-by-play: swaps, lost races, gestures and who noticed them, calls, scores.

Rounds are numbered from 1 ("Round 1"), as in ``kemps-sim play --round`` and the ``"round"`` field of its JSON.

The narrator replays each round's trace and keeps what a watcher at the table would keep in mind: every hand, the
middle, who holds four of a kind and the score. That is what lets a line say whose card a late reach wanted, which
freshly laid cards were taken before the last one landed, why a call was right or wrong, and the standings after
each call as it is scored (under ``wrong_call_ends_round = false`` points change mid-round).

The deal with redeals (``redeal_on_deal``): the trace records the hands as they are *after* the redeals. The deal
line shows them as first dealt instead (each redealt hand rebuilt by taking the drawn cards back out and the shown
ones back in), then one line per redeal with the cards shown and drawn and the hand it leaves, then the middle,
which is dealt last. Read top to bottom, every card is explained in the order it happened. Should the rebuilt hands
not replay into the recorded ones, the recorded hands are shown, labelled as after the redeals.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from kemps_sim.cards import RANKS, hand_text
from kemps_sim.results import EndReason
from kemps_sim.retrace import TableReplay
from kemps_sim.scoring import Outcome, ScoreDelta, Standings, ends_round, letters_text, stop_penalty_applies
from kemps_sim.seating import NOBODY, pair_seats, partner
from kemps_sim.trace import (
    CallCutOff,
    CallHeard,
    Dealt,
    Gestured,
    HandFour,
    Objected,
    Perceived,
    PlayStarted,
    RaceLost,
    Redealt,
    Refilled,
    Revealed,
    RoundEnded,
    Scored,
    StallSaid,
    Swapped,
    Swept,
    TraceEvent,
)

if TYPE_CHECKING:
    from kemps_sim.results import MatchResult, RoundResult
    from kemps_sim.rules import Rules

#: What a gesture looks like as an act ("seat 0 touches an ear") and as a thing noticed ("seat 0's ear touch").
GESTURE_WORDS: dict[str, tuple[str, str]] = {
    "blink": ("blinks", "blink"),
    "chin": ("touches the chin", "chin touch"),
    "cough": ("coughs", "cough"),
    "ear": ("touches an ear", "ear touch"),
    "eye_rub": ("rubs an eye", "eye rub"),
    "mouth": ("touches the mouth", "mouth touch"),
    "nod": ("nods", "nod"),
    "nose": ("touches the nose", "nose touch"),
    "tap": ("taps the table", "tap on the table"),
    "word": ("says the code word", "code word"),
    "yawn": ("yawns", "yawn"),
}
_GAZE = {"fixated": "looking", "peripheral": "out of the corner of an eye", "heard": "heard it"}
_SWEEP_REASONS = {
    "nobody_wants": "nobody wants them",
    "stall_call": "\"stalled\" and nobody objected",
    "all_agree": "everyone said \"stalled\"",
    "dealer_decides": "the dealer's decision",
}
_NO_CALL_ENDS = {"void_pack_exhausted": "the pack ran out: a void round, nobody scores",
                 "timeout": "the time cap: nobody called"}


def gesture_act(gesture: str) -> str:
    """A gesture as something a seat does, e.g. ``touches an ear``."""
    return GESTURE_WORDS.get(gesture, (f"makes the {gesture.replace('_', ' ')} gesture", ""))[0]


def gesture_noun(gesture: str) -> str:
    """A gesture as something noticed, e.g. ``ear touch``."""
    return GESTURE_WORDS.get(gesture, ("", gesture.replace("_", " ")))[1]


def call_word(rules: Rules, call: str) -> str:
    """The words spoken for a call kind under these rules, e.g. ``Contre Kem's`` for ``stop_kemps`` under kems."""
    first, stop = rules.call_words
    return {"kemps": first, "stop_kemps": stop, "double_kemps": f"Double {first}"}.get(call, call.replace("_", " "))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _seats(seats: Sequence[int]) -> str:
    seats = list(seats)
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def score_text(rules: Rules, standings: Standings, decided: int | None = None) -> str:
    """The match score in one line in the rules' own measure, e.g. ``points: 3 for pair 0, 1 for pair 1 (first
    to 10 wins)``; under rounds-won scoring ``decided`` (default: the standings' count) says how far the match is."""
    pairs = range(rules.pairs)
    if rules.scoring == "letters":
        each = ", ".join(f"{letters_text(standings.letters[p]) or 'none'} for pair {p}" for p in pairs)
        return f"letters: {each} (five letters lose)"
    if rules.scoring == "points":
        each = ", ".join(f"{standings.points[p]} for pair {p}" for p in pairs)
        return f"points: {each} (first to {rules.target_points} wins)"
    each = ", ".join(f"{standings.rounds_won[p]} for pair {p}" for p in pairs)
    played = standings.rounds_played if decided is None else decided
    return f"rounds won: {each} ({played} of {rules.rounds_to_play} rounds decided)"


def standings_text(rules: Rules, standings: Standings, agents: tuple[str, ...] = ()) -> list[str]:
    """One line per pair: seats, agents, and letters, points or rounds won."""
    lines = []
    for pair in range(rules.pairs):
        seats = pair_seats(rules.players, pair)
        who = f"pair {pair} (seats {seats[0]} and {seats[1]}"
        if agents:
            who += ": " + " + ".join(dict.fromkeys(agents[s] for s in seats))
        who += ")"
        if rules.scoring == "letters":
            count = standings.letters[pair]
            score = _plural(count, "letter") + (f" {letters_text(count)}" if count else "")
        elif rules.scoring == "points":
            score = f"{_plural(standings.points[pair], 'point')} (first to {rules.target_points} wins)"
        else:
            score = (f"{_plural(standings.rounds_won[pair], 'round')} won ({standings.rounds_played} of "
                     f"{rules.rounds_to_play} rounds decided)")
        lines.append(f"{who}: {score}")
    return lines


_END_REASONS = {EndReason.MATCH_OVER: "the match is decided", EndReason.ROUND_CAP: "the cap on rounds was reached",
                EndReason.AGENT_ERROR: "an agent failed", EndReason.CRASHED: "a worker crashed"}


def narrate(result: MatchResult, fidgets: bool = False) -> Iterator[str]:
    """Lines of a play-by-play; fidgets appear only when somebody noticed them, unless ``fidgets``."""
    rules = result.rules
    if rules.decks > 1:
        yield "Two decks: a card of the second deck is marked ' (8♦' is the second deck's eight of diamonds)"
    before: Standings | None = None
    for rnd in result.rounds:
        yield from RoundNarrator(rules, rnd, before, fidgets).lines()
        before = rnd.standings
    yield ""
    reason = _END_REASONS.get(result.end_reason, result.end_reason.replace("_", " "))
    if result.end_reason == EndReason.AGENT_ERROR and result.error:
        reason += f": {result.error}"
    yield f"Match over after {_plural(len(result.rounds), 'round')} ({reason}):"
    for line in standings_text(rules, result.standings, result.agents):
        yield "  " + line
    yield "Winner: " + " and ".join(f"pair {p}" for p in result.winners)


class RoundNarrator:
    """One round told line by line, following hands, middle, fours and score as the trace unfolds."""

    def __init__(self, rules: Rules, rnd: RoundResult, before: Standings | None, fidgets: bool) -> None:
        self.rules, self.rnd, self.fidgets = rules, rnd, fidgets
        self.words = rules.call_words
        self.standings = before if before is not None else Standings.start(rules)
        self.table = TableReplay(rules.players)  # hands and middle as the trace has them so far
        self.swept: set[int] = set()  # the cards of the last sweep
        self.fours: dict[int, int] = {}  # seat -> rank of the four of a kind it holds
        self.last_call: CallHeard | None = None
        self.dealt: Dealt | None = None
        self.replay: list[list[int]] | None = None  # hands as the redeals are told, when they could be rebuilt
        self.redeals = [e for e in rnd.trace if type(e) is Redealt]
        self.ended = next((e.outcome for e in rnd.trace if type(e) is RoundEnded), rnd.outcome.value)
        self.noticed: dict[tuple[int, float], list[str]] = {}
        for event in rnd.trace:
            if type(event) is Perceived:
                how = _GAZE.get(event.gaze, event.gaze) + (", while reaching" if event.busy else "")
                self.noticed.setdefault((event.gesturer, event.made_at), []).append(f"seat {event.seat} ({how})")

    def lines(self) -> Iterator[str]:
        """The round's lines: a head line, one or more per event (with its time), and the score after it."""
        rnd = self.rnd
        yield (f"Round {rnd.index + 1}: dealer seat {rnd.dealer}; signals: "
               + ", ".join(f"pair {p} {gesture_noun(s)}" for p, s in enumerate(rnd.signals)))
        for event in rnd.trace:
            for line in self.event(event):
                yield f"  {event.time:7.2f} s  {line}"
        yield f"  after round {rnd.index + 1}: {score_text(self.rules, rnd.standings)}"

    # One event ------------------------------------------------------------------------------------------------
    def event(self, event: TraceEvent) -> list[str]:
        """Take in the next event (the table follows it) and return the lines that tell it (none for some)."""
        self.table.apply(event)
        kind = type(event)
        handler = getattr(self, "_" + kind.__name__.lower(), None)
        return handler(event) if handler is not None else []

    def _dealt(self, e: Dealt) -> list[str]:
        self.dealt = e
        if not self.redeals:
            return [f"deal: {self._hands(e.hands)}; middle {hand_text(e.middle)}"]
        first = _undo_redeals(e.hands, self.redeals)
        if first is None:
            return [f"deal (hands after the redeals below): {self._hands(e.hands)}; middle {hand_text(e.middle)}"]
        self.replay = [list(h) for h in first]
        return [f"deal (hands as first dealt): {self._hands(first)}"]

    def _redealt(self, e: Redealt) -> list[str]:
        text = f"seat {e.seat} shows {hand_text(e.shown)}, shuffles them back into the pack and draws "
        text += hand_text(e.drawn)
        lines = [text]
        if self.replay is not None and self.dealt is not None:
            hand = self.replay[e.seat]
            for card in e.shown:
                hand.remove(card)
            hand.extend(e.drawn)
            lines[0] += f": now holds {hand_text(hand)}"
            if e is self.redeals[-1]:
                lines.append(f"middle dealt: {hand_text(self.dealt.middle)}")
        return lines

    def _playstarted(self, e: PlayStarted) -> list[str]:
        if self.rules.start == "dealer_go":
            return [f"seat {e.dealer} (the dealer) says go: play starts"]
        return ["play starts"]

    def _swapped(self, e: Swapped) -> list[str]:
        if e.gave and e.took:
            return [f"seat {e.seat} swaps {hand_text(e.gave)} for {hand_text(e.took)}"]
        if e.gave:
            return [f"seat {e.seat} puts down {hand_text(e.gave)}"]
        return [f"seat {e.seat} picks up {hand_text(e.took)}"]

    def _racelost(self, e: RaceLost) -> list[str]:
        cards = hand_text(e.wanted)
        own = e.wanted and all(card in self.table.hands[e.seat] for card in e.wanted)
        if e.winner == NOBODY and own:
            why = "a fresh middle is being laid" if self.table.refilling else "the middle is being swept"
            return [f"seat {e.seat} is too late to put down {cards} ({why})"]
        if e.winner == NOBODY and self.table.refilling and not set(e.wanted) <= self.swept:
            return [f"seat {e.seat} reaches for {cards} too early: fresh cards may be taken only once the fourth is "
                    "face up"]
        if e.winner == NOBODY:
            return [f"seat {e.seat} reaches for {cards} too late: swept away"]
        return [f"seat {e.seat} reaches for {cards} too late: seat {e.winner} got there first"]

    def _handfour(self, e: HandFour) -> list[str]:
        if e.rank < 0:
            self.fours.pop(e.seat, None)
            return [f"seat {e.seat} no longer holds four of a kind"]
        self.fours[e.seat] = e.rank
        return [f"seat {e.seat} holds four {RANKS[e.rank]}s"]

    def _gestured(self, e: Gestured) -> list[str]:
        seen = self.noticed.get((e.seat, e.time), [])
        if not e.deliberate and not seen and not self.fidgets:
            return []
        what = ("signal" if e.holds_four else "fake or decoy") if e.deliberate else "fidget"
        by = f"; noticed by {', '.join(seen)}" if seen else "; nobody noticed"
        return [f"seat {e.seat} {gesture_act(e.gesture)} ({what}){by}"]

    def _stallsaid(self, e: StallSaid) -> list[str]:
        return [f"seat {e.seat}: \"stalled\""]

    def _objected(self, e: Objected) -> list[str]:
        return [f"seat {e.seat} objects: not stalled"]

    def _swept(self, e: Swept) -> list[str]:
        self.swept = set(e.cards)
        reason = _SWEEP_REASONS.get(e.reason, e.reason.replace("_", " "))
        return [f"seat {e.seat}{self._dealer(e.seat)} sweeps {hand_text(e.cards)} to the discards ({reason})"]

    def _refilled(self, e: Refilled) -> list[str]:
        taken = self.table.laid_taken
        text = f"seat {e.seat}{self._dealer(e.seat)} lays {_plural(len(e.cards), 'fresh card')}"
        text += " from the reshuffled discards" if e.reshuffled else ""
        text += f": {hand_text(e.cards)}"
        by_seat: dict[int, list[int]] = {}
        for card, seat in taken.items():
            by_seat.setdefault(seat, []).append(card)
        for seat, cards in by_seat.items():
            text += f"; seat {seat} took {hand_text(cards)} as {'it' if len(cards) == 1 else 'they'} landed"
        middle = self.table.middle
        if sorted(middle) != sorted(e.cards):
            text += f"; middle now {hand_text(middle) or 'empty'}"
        return [text]

    def _callheard(self, e: CallHeard) -> list[str]:
        self.last_call = e
        rules = self.rules
        about = e.accused if e.accused != NOBODY else partner(rules.players, e.seat)
        target = f" on seat {e.accused}" if e.accused != NOBODY else ""
        cue = f" after noticing seat {about}'s {gesture_noun(e.cue)}" if e.cue else ""
        text = f"seat {e.seat}: \"{call_word(rules, e.call)}!\"{target}, begun at {e.started:.2f} s{cue}; "
        text += self._verdict(e)
        if not e.ends_round:
            if stop_penalty_applies(rules, Outcome(e.outcome)):
                text += f"; seat {e.seat} may not call \"{self.words[1]}!\" again this round"
            text += "; play goes on"
        return [text]

    def _verdict(self, e: CallHeard) -> str:
        rules, outcome = self.rules, e.outcome
        mate = partner(rules.players, e.seat)
        if outcome == "kemps_right":
            return f"right: partner seat {mate} holds {self._four(mate)}"
        if outcome == "kemps_wrong":
            return f"wrong: partner seat {mate} does not hold four of a kind"
        if outcome == "double_right":
            return f"right: seat {e.seat} holds {self._four(e.seat)} and partner seat {mate} {self._four(mate)}"
        if outcome == "double_wrong":
            return f"wrong: seat {e.seat} and partner seat {mate} do not both hold four of a kind"
        accused = (e.accused,) if rules.stop_kemps_reveals == "accused_player" else tuple(
            sorted((e.accused, partner(rules.players, e.accused))))
        if outcome == "stop_right":
            holder = next((s for s in accused if s in self.fours), accused[0])
            return f"right: seat {holder} holds {self._four(holder)}"
        if outcome == "stop_wrong":
            if len(accused) == 1:
                return f"wrong: seat {e.accused} does not hold four of a kind"
            return f"wrong: nobody accused ({_seats(accused)}) holds four of a kind"
        if outcome == "stop_ineffective":
            both = tuple(sorted((e.accused, partner(rules.players, e.accused))))
            return (f"wrong: {_seats(both)} both hold four of a kind, a Double {self.words[0]} that a "
                    f"{self.words[1]} cannot catch")
        return "right" if e.right else "wrong"

    def _four(self, seat: int) -> str:
        rank = self.fours.get(seat)
        return "four of a kind" if rank is None else f"four {RANKS[rank]}s"

    def _callcutoff(self, e: CallCutOff) -> list[str]:
        cause = "cut off by an earlier call" if self.ended not in _NO_CALL_ENDS else "the round ended first"
        return [f"seat {e.seat} was still saying \"{call_word(self.rules, e.call)}!\" (begun at {e.started:.2f} s): "
                f"too late, {cause}"]

    def _revealed(self, e: Revealed) -> list[str]:
        shown = "; ".join(f"seat {s}: {hand_text(h)}" for s, h in zip(e.seats, e.hands, strict=True))
        if e.to != NOBODY and len(e.seats) == 1:
            return [f"seat {e.seats[0]} shows seat {e.to} alone: {hand_text(e.hands[0])}"]
        if e.to != NOBODY:
            return [f"shown to seat {e.to} alone: {shown}"]
        return [f"hands shown: {shown}"]

    def _scored(self, e: Scored) -> list[str]:
        rules = self.rules
        self.standings = self.standings.apply(ScoreDelta(e.letters, e.points, e.rounds_won))
        if rules.scoring == "letters":
            gains = [f"pair {p} takes {'a letter' if n == 1 else f'{n} letters'}" for p, n in enumerate(e.letters)
                     if n]
        elif rules.scoring == "points":
            gains = [f"pair {p} scores {_plural(n, 'point')}" for p, n in enumerate(e.points) if n]
        else:
            gains = [f"pair {p} wins the round" for p, n in enumerate(e.rounds_won) if n]
        decided = self.standings.rounds_played + int(self.last_call is not None and self.last_call.ends_round)
        return [f"{' and '.join(gains) or 'nobody scores'}; {score_text(rules, self.standings, decided)}"]

    def _roundended(self, e: RoundEnded) -> list[str]:
        if e.outcome in _NO_CALL_ENDS:
            return [f"round ends: {_NO_CALL_ENDS[e.outcome]}"]
        call = self.last_call
        if call is None:
            return [f"round ends: {e.outcome.replace('_', ' ')}"]
        verdict = "right" if call.right else "wrong"
        text = f"round ends on seat {call.seat}'s {verdict} \"{call_word(self.rules, call.call)}!\""
        if not ends_round(self.rules, Outcome(call.outcome)):
            text += " (the match is decided)"  # a call that lets play go on ends the round only with the match
        return [text]

    # Helpers --------------------------------------------------------------------------------------------------
    def _dealer(self, seat: int) -> str:
        return " (the dealer)" if seat == self.rnd.dealer else ""

    @staticmethod
    def _hands(hands: Sequence[Sequence[int]]) -> str:
        return "; ".join(f"seat {s}: {hand_text(h)}" for s, h in enumerate(hands))


def _undo_redeals(hands: Sequence[Sequence[int]], redeals: Sequence[Redealt]) -> list[list[int]] | None:
    """The hands as first dealt: each redeal undone, last first (the drawn cards out, the shown ones back).

    ``None`` unless replaying the redeals forward gives back exactly the recorded hands (as sets of cards).
    """
    first = [list(h) for h in hands]
    for r in reversed(redeals):
        hand = first[r.seat]
        if any(card not in hand for card in r.drawn):
            return None
        for card in r.drawn:
            hand.remove(card)
        hand.extend(r.shown)
    replay = [list(h) for h in first]
    for r in redeals:
        if any(card not in replay[r.seat] for card in r.shown):
            return None
        for card in r.shown:
            replay[r.seat].remove(card)
        replay[r.seat].extend(r.drawn)
    if [sorted(h) for h in replay] != [sorted(h) for h in hands]:
        return None
    return first
