"""One home per order type: its legality and its execution side by side.

Each module here owns one order type of "The War to End All Wars" (sometimes a few
that are one rule, like MOVE and ATTACK) and defines an OrderRule subclass (base.py):

    problem(pos, nation, order)  -> Problem | None   the rules' refusal, read-only
    remarks(pos, nation, order)  -> [Problem]        warnings and moderator flags
    commit(ctx, nation, i, order)                     what the order spends and claims
    execute(ctx, nation, i, order)                    the whole effect, in the engine
    assume(ctx, nation, i, order)                     the checker's optimistic outcome

The order checker is problem() + commit() walked over the ruleset's phase table on a
scratch copy of the position (moderator.engine.check); the engine is problem() +
execute() at the moment the order's step runs (moderator.engine.resolve). No rule is
written twice, so the receipt and the resolution cannot disagree.
"""
