"""The search bot of the Go-Stop family (맞고 and 고스톱; level ``hard``):
information-set Monte-Carlo over sampled worlds.

For each decision the bot deals the cards it cannot see (every opponent's hidden hand —
at a table of three, two hands — and the draw pile) at random, consistently with its
view (:meth:`MatgoState.from_view`; nothing is peeked), tries every candidate action in
that world and plays on with a cheap rollout policy, every seat alike, for a short
horizon (three plays by default), then values the result: payments made since the
decision (a game that ended: the real outcome), plus the seat's captured pile's
potential against each opponent's (a win is paid by every opponent) and the same of
what each hand can pair with on the floor. The same sampled world and the same flips
serve every candidate (common random numbers), so the comparison between actions is
sharp even with few samples. The action with the best mean value is chosen; the greedy
valuation's own choice wins ties. Sampling stops at the budget's time limit or
iteration cap, whichever comes first.

고/스톱 is decided by expected payment (:meth:`SearchBot.go_or_stop`): 스톱 pays the
settlement of the piles on the table, exactly; 고 pays, on average over the sampled
worlds, whatever the playout to the end of the game brings — the 고 bonus and the
doubling from the third 고, 흔들기, 피박, 광박 and 멍따 as they come, and the 고박 paid
when an opponent reaches the stop score first (고스톱's 독박: every share). The bot
says 고 when that mean is higher, unless an opponent wins in more than 5% of the worlds
(``go_risk``): a win in hand is not traded for points at that risk.

With ``leaf="net"`` and ``go_net`` (the ``hard_learned`` bot) the cut playouts and 고's
playouts are valued by a learned prediction of the rest of the game's payments
(:mod:`madang.bots.matgo_net`) instead of the potentials.

>>> import random
>>> from madang.matgo.engine import new_game
>>> from madang.matgo.view import view
>>> g = new_game(seed=4)
>>> bot = SearchBot()
>>> a = bot.act(view(g, g.current), g.legal_actions(), random.Random(0), Budget(None, 4))
>>> a in g.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from madang.bots.base import Budget
from madang.bots.matgo_greedy import (
    DEFAULT_WEIGHTS,
    Knowledge,
    Weights,
    _play_value,
    choose,
    join_or_die,
    potential,
)
from madang.bots.matgo_static import CARD_VALUE, NIB_MAX, NIB_VALUE, hand_reach
from madang.bots.matgo_value import win_probability
from madang.core.errors import RuleConfigError
from madang.matgo import actions as A
from madang.matgo.cards import BIT, BONUS_MASK, MONTH
from madang.matgo.engine import MatgoState, Phase

if TYPE_CHECKING:
    from madang.bots.matgo_net import PointsNet

#: The valuation of the search bot: the greedy's, with 피 below ten valued a little lower
#: (measured: a greedy bot with these weights wins about 53% against the default).
HARD_WEIGHTS = Weights(pi=0.2)


def _card_play(floor: int, c: int) -> float:
    g = MONTH[c] - 1
    nib = (floor >> (g << 2)) & 15
    if not nib:
        return -0.5 * CARD_VALUE[c]
    n = nib.bit_count()
    if n == 1:
        return CARD_VALUE[c] + NIB_VALUE[g][nib]
    if n == 2:
        return CARD_VALUE[c] + NIB_MAX[g][nib]
    return CARD_VALUE[c] + NIB_VALUE[g][nib] + 1.5


def _best_capture(floor: int, legal: list[int]) -> int:
    """The play that grabs the most valuable capture (by static card values) on ``floor``:
    a bonus card or a 폭탄 at once, 흔들기 a little above the plain card, a token flip last."""
    best, best_v = legal[0], -1e9
    for a in legal:
        if a < A.SHAKE:
            if BIT[a] & BONUS_MASK:
                return a
            v = _card_play(floor, a)
        elif a < A.BOMB:
            v = _card_play(floor, a - A.SHAKE) + 1.0
        elif a < A.FLIP:
            return a
        else:
            v = 0.0
        if v > best_v:
            best, best_v = a, v
    return best


def _most_valuable(options: int) -> int:
    """The 패 선택 answer taking the option of highest static value (the lowest on a tie)."""
    best, best_v = 0, -1.0
    while options:
        low = options & -options
        options ^= low
        c = low.bit_length() - 1
        if CARD_VALUE[c] > best_v:
            best, best_v = c, CARD_VALUE[c]
    return A.PICK + best


def _quick_go(go_me: int, go_opp: int, hand_size: int, opp_score: int) -> int:
    """The cheap 고/스톱 rule: 스톱 after an opponent's 고 or one's own second; 고 with
    four or more cards in hand while every opponent has two points or fewer
    (``go_opp``, ``opp_score``: the most of any opponent)."""
    if go_opp or go_me >= 2:
        return A.STOP
    if hand_size >= 4 and opp_score <= 2:
        return A.GO
    return A.STOP


def rollout_action(s: MatgoState) -> int:
    """The cheap policy both seats follow in playouts: grab the most valuable capture."""
    legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = s.phase
    if phase is Phase.PLAY:
        return _best_capture(s.floor, legal)
    if phase is Phase.PICK_PLAY or phase is Phase.PICK_FLIP:
        return _most_valuable(s.turn.options)
    if phase is Phase.GO_STOP:
        p = s.current
        go, score = s.go_count, s.score
        others = s.after[p]
        return _quick_go(
            go[p],
            max(go[o] for o in others),
            s.hands[p].bit_count(),
            max(score(o) for o in others),
        )
    return s.default_action()


class CaptureBot:
    """The search's rollout policy as a bot that sees only its view (name ``capture``):
    grab the most valuable capture by static card values, take the most valuable 패 선택
    option, the cheap 고/스톱 rule; 국진 and 총통 as the greedy bot answers them. A
    reference opponent for the arena: about as strong as ``greedy`` (docs/bots.md)."""

    name = "capture"

    def act(
        self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget | None
    ) -> int:
        """The capture-grabbing action (deterministic; ``rng`` and ``budget`` unused)."""
        if len(legal) == 1:
            return legal[0]
        k = Knowledge.from_view(view)
        phase = k.phase
        if phase is Phase.PLAY:
            return _best_capture(k.floor, legal)
        if phase is Phase.PICK_PLAY or phase is Phase.PICK_FLIP:
            return _most_valuable(k.options)
        if phase is Phase.GO_STOP:
            go, scores = k.go, k.scores
            return _quick_go(
                go[k.me],
                max(go[o] for o in k.opps),
                k.hand.bit_count(),
                max(scores[o] for o in k.opps),
            )
        return choose(k, legal)


def playout(s: MatgoState, horizon: int = 1 << 30) -> None:
    """Play ``s`` with :func:`rollout_action` (every seat) to the end or for ``horizon`` plays."""
    step = s.step
    plays = 0
    while s.phase is not Phase.OVER:
        if s.phase is Phase.PLAY:
            if plays >= horizon:
                return
            plays += 1
        step(rollout_action(s))


def playout_vs_greedy(s: MatgoState, me: int, horizon: int, replies: int) -> None:
    """Like :func:`playout`, but the opponents' first ``replies`` plays are the greedy
    bot's own choice (its valuation of what it would know in ``s``): the opponent model."""
    step = s.step
    plays = 0
    while s.phase is not Phase.OVER:
        if s.phase is Phase.PLAY:
            if plays >= horizon:
                return
            plays += 1
            o = s.current
            if replies and o != me:
                replies -= 1
                legal = s.legal_actions()
                if len(legal) > 1:
                    step(choose(Knowledge.from_state(s, o, DEFAULT_WEIGHTS), legal))
                    continue
        step(rollout_action(s))


def leaf_value(
    s: MatgoState, seat: int, start: int, w: Weights = HARD_WEIGHTS, reach: float = 0.3
) -> float:
    """A playout's value for ``seat``: the payments since ``start``; for a game still
    running, plus, against each opponent, the difference of the two captured piles'
    potentials and, weighted by ``reach``, of the floor cards the two hands can pair with
    (a win is paid by every opponent, and any of them may win). A pile's potential
    counts the sets the other players' piles have not broken."""
    v = float(net_points(s, seat, start))
    if s.phase is not Phase.OVER:
        captured, hands, floor = s.captured, s.hands, s.floor
        mine = captured[seat]
        others = s.after[seat]
        theirs = 0
        for o in others:
            theirs |= captured[o]
        mine_v = potential(mine, theirs, w)
        diff = 0.0
        for o in others:
            pile = captured[o]
            diff += mine_v - potential(pile, mine | (theirs ^ pile), w)
        v += diff
        if reach:
            my_reach = hand_reach(hands[seat], floor)
            r = 0.0
            for o in others:
                r += my_reach - hand_reach(hands[o], floor)
            v += reach * r
    return v


def net_points(s: MatgoState, seat: int, start: int = 0) -> int:
    """Points ``seat`` received minus points it paid, over ``s.payments[start:]``."""
    net = 0
    for frm, to, pts, _ in s.payments[start:]:
        if to == seat:
            net += pts
        elif frm == seat:
            net -= pts
    return net


def _candidates(k: Knowledge, legal: list[int], limit: int) -> list[int]:
    """Every legal action, or the ``limit`` best by the greedy valuation in a long list."""
    if len(legal) <= limit or k.phase is not Phase.PLAY:
        return list(legal)
    scored = []
    for a in legal:
        if a < A.SHAKE:
            v = 100.0 if BIT[a] & BONUS_MASK else _play_value(k, a)
        elif a < A.BOMB:
            v = _play_value(k, a - A.SHAKE) + 1.0
        else:
            v = 50.0
        scored.append((v, a))
    scored.sort(key=lambda t: -t[0])
    return [a for _, a in scored[:limit]]


class _Worlds:
    """Worlds consistent with a view: one state from the view
    (:meth:`MatgoState.from_view`) whose unseen cards (the opponent's unrevealed hand
    and the draw pile) are dealt afresh by every :meth:`deal`."""

    __slots__ = ("base", "me", "rng")

    def __init__(self, view: dict[str, Any], me: int, rng: random.Random) -> None:
        self.base = MatgoState.from_view(view, rng)
        self.me, self.rng = me, rng

    def deal(self) -> MatgoState:
        """Deal the unseen cards again (in place) and return the world."""
        self.base.resample_hidden(self.me, self.rng)
        return self.base


class SearchBot:
    """The ``hard`` Matgo bot: determinized Monte-Carlo with cheap playouts (see module doc).

    ``horizon``: plays (both seats) after the candidate before a playout is cut and
    valued by :func:`leaf_value` (``None``: to the end of the game). ``max_candidates``
    keeps only the valuation's best few plays when a hand offers many. ``search_go``:
    decide 고/스톱 by expected payment (:meth:`go_or_stop`); off, the greedy rule decides
    it. ``go_margin``: the points by which 고's expected payment must beat 스톱's;
    ``go_risk``: the largest share of sampled worlds in which 고 may lose (the opponent
    wins) — above it the bot stops whatever the mean (a game won is kept; measured in
    docs/bots.md).
    ``weights`` is the valuation used for the prior, the candidate ranking and the
    leaves. ``replies``: the opponent's first so many plays in each rollout are the
    greedy bot's own choice (an opponent model, about ten times the cost of a cheap play,
    so far fewer samples; measured no better: off by default). ``leaf``:
    ``"potential"`` values a cut playout with :func:`leaf_value`; ``"learned"`` with the
    learned chance of winning (:func:`madang.bots.matgo_value.win_probability`; a game
    that ended counts 1, 0 or ½), which is best with ``horizon=1`` (the ``search_value``
    bot); ``"net"`` with the payments since the decision plus the learned points net's
    prediction of the rest (:mod:`madang.bots.matgo_net`, needs numpy). ``go_net``: 고's
    expected payment is taken at ``go_horizon`` plays after the 고 and valued the same
    way (``go_risk`` still counts the worlds lost at the end of the full playout); with
    ``leaf="net"`` and ``go_net`` this is the ``hard_learned`` bot. ``net``: the points
    net to read (the one shipped with the package when ``None``), as the training of a
    second generation plays with the first.
    """

    name = "search"

    def __init__(
        self,
        horizon: int | None = 3,
        max_candidates: int = 8,
        search_go: bool = True,
        weights: Weights = HARD_WEIGHTS,
        reach: float = 0.3,
        replies: int = 0,
        leaf: Literal["potential", "learned", "net"] = "potential",
        go_margin: float = 0.0,
        go_risk: float = 0.05,
        go_net: bool = False,
        go_horizon: int = 4,
        net: PointsNet | None = None,
    ) -> None:
        if leaf not in ("potential", "learned", "net"):
            raise RuleConfigError(f"unknown leaf evaluation {leaf!r}: potential, learned or net")
        if go_horizon < 0:
            raise RuleConfigError(f"go_horizon must be 0 or more, not {go_horizon}")
        self.horizon = horizon
        self.max_candidates = max_candidates
        self.search_go = search_go
        self.weights = weights
        self.reach = reach
        self.replies = replies
        self.learned = leaf == "learned"
        self.go_margin = go_margin
        self.go_risk = go_risk
        self.go_horizon = go_horizon
        self.net: PointsNet | None = net
        if (leaf == "net" or go_net) and net is None:
            try:
                from madang.bots.matgo_net import default_net
            except ImportError as e:  # numpy: the rl extra
                raise RuleConfigError(f"the learned points net needs numpy: {e}") from None
            self.net = default_net()
        self.net_leaf = leaf == "net"
        self.go_net = go_net

    def act(
        self, view: dict[str, Any], legal: list[int], rng: random.Random, budget: Budget | None
    ) -> int:
        """The candidate with the best mean playout value (the prior's choice on a tie)."""
        if len(legal) == 1:
            return legal[0]
        budget = budget or Budget()
        clock = budget.now
        start = clock()
        deadline = budget.deadline(start)
        cap = budget.iterations or 1 << 30
        k = Knowledge.from_view(view, self.weights)
        prior = choose(k, legal)
        if k.phase is Phase.JOIN:  # 광팔기's join/die: the greedy rule (join_or_die)
            return prior
        if k.phase is Phase.GO_STOP:
            if not self.search_go:
                return prior
            return self.go_or_stop(view, k.me, prior, rng, deadline, cap, clock)
        cands = _candidates(k, legal, self.max_candidates)
        if prior not in cands:
            cands[-1] = prior
        me = k.me
        worlds = _Worlds(view, me, rng)
        n_pay = len(worlds.base.payments)
        totals = [0.0] * len(cands)
        horizon = 1 << 30 if self.horizon is None else self.horizon
        w, reach = self.weights, self.reach
        replies = self.replies
        learned = self.learned
        net = self.net if self.net_leaf else None
        n = 0
        while True:
            base = worlds.deal()
            running: list[tuple[int, MatgoState]] = []
            for i, a in enumerate(cands):
                world = base.clone()
                world.step(a)
                if replies:
                    playout_vs_greedy(world, me, horizon, replies)
                else:
                    playout(world, horizon)
                if net is not None:
                    totals[i] += net_points(world, me, n_pay)
                    if world.phase is not Phase.OVER:
                        running.append((i, world))
                elif learned:
                    totals[i] += win_probability(world, me)
                else:
                    totals[i] += leaf_value(world, me, n_pay, w, reach)
            if running:
                assert net is not None
                rest = net.points([world for _, world in running], me)
                for (i, _), v in zip(running, rest, strict=True):
                    totals[i] += float(v)
            n += 1
            if n >= cap or clock() >= deadline:
                break
        best = max(totals)
        if totals[cands.index(prior)] >= best:
            return prior
        return cands[totals.index(best)]

    def go_or_stop(
        self,
        view: dict[str, Any],
        me: int,
        prior: int,
        rng: random.Random,
        deadline: float,
        cap: int,
        clock: Callable[[], float] = time.perf_counter,
    ) -> int:
        """고 or 스톱 by expected payment. 스톱's payment is known exactly (the settlement
        of the piles on the table, 박 and 고박 included); 고's is the mean, over sampled
        worlds, of the payments from here to the end of a playout (the cheap policy for
        both seats: later 고, 흔들기 and 박 as they come, and the 고박 paid if the opponent
        gets there first). 고 when its mean beats 스톱 by more than ``go_margin`` and
        the opponent wins in no more than ``go_risk`` of the worlds; ``prior`` (the
        greedy rule's answer) on a tie."""
        worlds = _Worlds(view, me, rng)
        base = worlds.base
        n_pay = len(base.payments)
        stopped = base.clone()
        stopped.step(A.STOP)
        stop_value = float(net_points(stopped, me, n_pay)) + self.go_margin
        total = 0.0
        n = lost = 0
        net_eval = self.net if self.go_net else None
        cut = self.go_horizon if net_eval is not None else 1 << 30
        running: list[MatgoState] = []
        while True:
            world = worlds.deal().clone()
            world.step(A.GO)
            playout(world, cut)
            if world.phase is Phase.OVER or net_eval is None:
                total += net_points(world, me, n_pay)
            else:
                running.append(world.clone())  # valued by the net, in batches
                playout(world)  # and played out for the risk
            lost += net_points(world, me, n_pay) < 0
            n += 1
            done = n >= cap or clock() >= deadline
            if running and (done or len(running) >= 32):
                assert net_eval is not None
                rest = net_eval.points(running, me)
                for cut_world, v in zip(running, rest, strict=True):
                    total += net_points(cut_world, me, n_pay) + float(v)
                running.clear()
            if done:
                break
        if lost > self.go_risk * n:
            return A.STOP  # 스톱 wins for sure: no 고 that loses too often
        go_value = total / n
        if go_value == stop_value:
            return prior
        return A.GO if go_value > stop_value else A.STOP


def move_values(
    view: dict[str, Any],
    legal: list[int],
    rng: random.Random,
    samples: int,
    deadline: float = float("inf"),
    horizon: int | None = 3,
    weights: Weights = HARD_WEIGHTS,
    reach: float = 0.3,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], int]:
    """The search's value of every action of ``legal`` from ``view`` (the seat's own
    view only): the mean over sampled worlds of :func:`leaf_value` after the action and
    a cheap playout of ``horizon`` plays, the same worlds for every action (as
    :meth:`SearchBot.act` compares its candidates, but over all of ``legal``). Sampling
    stops after ``samples`` worlds or at ``deadline`` (of ``clock``), at least one world;
    returns the means and the number of worlds. The game review (:mod:`madang.review`)
    scores moves with it."""
    me = view["seat"]
    worlds = _Worlds(view, me, rng)
    n_pay = len(worlds.base.payments)
    totals = [0.0] * len(legal)
    cut = 1 << 30 if horizon is None else horizon
    n = 0
    while True:
        base = worlds.deal()
        for i, a in enumerate(legal):
            world = base.clone()
            world.step(a)
            playout(world, cut)
            totals[i] += leaf_value(world, me, n_pay, weights, reach)
        n += 1
        if n >= samples or clock() >= deadline:
            break
    return [t / n for t in totals], n


def go_stop_values(
    view: dict[str, Any],
    rng: random.Random,
    samples: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """The two answers to 고/스톱 from ``view`` (the seat's own view), as
    :meth:`SearchBot.go_or_stop` weighs them: ``stop`` the exact payment of 스톱 now;
    ``go`` the mean payment over sampled worlds of 고 and a playout to the end,
    ``go_win`` the share of those worlds the seat ends paid (net above zero),
    ``go_lose`` the share it ends paying; ``samples`` the worlds drawn."""
    me = view["seat"]
    worlds = _Worlds(view, me, rng)
    base = worlds.base
    n_pay = len(base.payments)
    stopped = base.clone()
    stopped.step(A.STOP)
    stop_value = float(net_points(stopped, me, n_pay))
    total = 0.0
    n = won = lost = 0
    while True:
        world = worlds.deal().clone()
        world.step(A.GO)
        playout(world)
        net = net_points(world, me, n_pay)
        total += net
        won += net > 0
        lost += net < 0
        n += 1
        if n >= samples or clock() >= deadline:
            break
    return {
        "stop": stop_value,
        "go": total / n,
        "go_win": won / n,
        "go_lose": lost / n,
        "samples": n,
    }


def playout_to_end(s: MatgoState) -> None:
    """:func:`playout` to the end of the game, with 광팔기's join/die questions still to
    come answered by :func:`~madang.bots.matgo_greedy.join_or_die` (as every bot
    answers them) rather than the timeout's `die`."""
    step = s.step
    while s.phase is not Phase.OVER:
        if s.phase is Phase.JOIN:
            step(join_or_die(s.hands[s.current], s.floor))
        else:
            step(rollout_action(s))


def answer_values(
    view: dict[str, Any],
    legal: list[int],
    rng: random.Random,
    samples: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[dict[str, float]], int]:
    """Every action of ``legal`` from ``view`` (the seat's own view) valued by what it
    pays to the end of the game, as :func:`go_stop_values` values 고: in the same sampled
    worlds (common random numbers), the action, then every seat plays on by the cheap
    policy (:func:`playout_to_end`) to the end. Per action: ``expected`` the mean net
    payment, ``win`` the share of worlds the seat ends paid (net above zero), ``lose``
    the share it ends paying; and the number of worlds drawn (``samples``, or fewer at
    ``deadline`` of ``clock``, at least one). The review scores the questions that
    decide a whole game with it: 광팔기's join/die, 쇼당 and its answers."""
    me = view["seat"]
    worlds = _Worlds(view, me, rng)
    n_pay = len(worlds.base.payments)
    totals = [0] * len(legal)
    won = [0] * len(legal)
    lost = [0] * len(legal)
    n = 0
    while True:
        base = worlds.deal()
        for i, a in enumerate(legal):
            world = base.clone()
            world.step(a)
            playout_to_end(world)
            net = net_points(world, me, n_pay)
            totals[i] += net
            won[i] += net > 0
            lost[i] += net < 0
        n += 1
        if n >= samples or clock() >= deadline:
            break
    return [
        {"expected": t / n, "win": w / n, "lose": x / n}
        for t, w, x in zip(totals, won, lost, strict=True)
    ], n


def action_values(
    view: dict[str, Any],
    legal: list[int],
    rng: random.Random,
    samples: int,
    leaf: Literal["win", "points"] = "win",
    horizon: int | None = None,
) -> list[float]:
    """Every action of ``legal`` from ``view`` (the seat's own view only) valued as the
    search values its candidates, over all of ``legal``: the mean over ``samples`` sampled
    worlds (the same worlds for every action) of the leaf after the action and a cheap
    playout of ``horizon`` plays. ``leaf="win"``: the learned chance of winning
    (:func:`~madang.bots.matgo_value.win_probability`; the ``search_value`` bot's leaf,
    horizon 1 by default); ``leaf="points"``: :func:`leaf_value` (payments since the
    decision plus the piles' potentials; ``hard``'s leaf, horizon 3 by default). The
    targets of ``madang train matgo --teacher search_q`` (docs/rl/train.md).

    >>> from madang.matgo.engine import new_game
    >>> from madang.matgo.view import view
    >>> g = new_game(seed=4)
    >>> v = action_values(view(g, g.current), g.legal_actions(), random.Random(0), 2)
    >>> len(v) == len(g.legal_actions()) and all(0.0 <= x <= 1.0 for x in v)
    True
    """
    if leaf not in ("win", "points"):
        raise RuleConfigError(f"unknown leaf {leaf!r}: win or points")
    me = view["seat"]
    worlds = _Worlds(view, me, rng)
    n_pay = len(worlds.base.payments)
    totals = [0.0] * len(legal)
    cut = horizon if horizon is not None else (1 if leaf == "win" else 3)
    for _ in range(max(1, samples)):
        base = worlds.deal()
        for i, a in enumerate(legal):
            world = base.clone()
            world.step(a)
            playout(world, cut)
            if leaf == "win":
                totals[i] += win_probability(world, me)
            else:
                totals[i] += leaf_value(world, me, n_pay)
    n = max(1, samples)
    return [t / n for t in totals]
