"""Dead code: a value no output, check or live instruction uses, from an instruction that
cannot fail (`guards.can_fail`), is removed; then ids are renumbered densely (inputs first, then
values in order), as the IR's readers expect."""

from __future__ import annotations

from typing import Any

from zeenot.lang.passes.guards import FALLIBLE, can_fail


def eliminate_dead(
    inputs: list[dict[str, Any]], body: list[dict[str, Any]], outputs: list[int]
) -> list[dict[str, Any]]:
    """`body` without the instructions whose values nothing uses and that cannot fail: every
    instruction without a result (check, point_check, eddsa_check) and every one that can
    fail stays, with what they use."""
    types = {i["id"]: i["ty"] for i in inputs}
    types.update((i["id"], i["ty"]) for i in body if "id" in i)
    consts = {i["id"]: int(i["value"]) for i in body if i["op"] == "const" and i["ty"] != "field"}
    live = set(outputs)
    keep = [False] * len(body)
    for k in range(len(body) - 1, -1, -1):
        ins = body[k]
        args = ins.get("args") or []
        effect = "id" not in ins or (
            ins["op"] in FALLIBLE
            and can_fail(
                ins["op"],
                ins["ty"],
                types.get(args[0]) if args else None,
                consts.get(args[1]) if len(args) > 1 else None,
            )
        )
        if effect or ins.get("id") in live:
            keep[k] = True
            live.update(args)
            if ins.get("guard") is not None:
                live.add(ins["guard"])
    return [ins for ins, k in zip(body, keep, strict=True) if k]


def renumber(
    inputs: list[dict[str, Any]], body: list[dict[str, Any]], outputs: list[dict[str, Any]]
) -> None:
    """Make ids dense again after `eliminate_dead` (inputs first, then values in order), so
    that an id is a value's position, as the IR's readers expect; in place."""
    new: dict[int, int] = {}
    for i in inputs:
        new[i["id"]] = len(new)
        i["id"] = new[i["id"]]
    for ins in body:
        if "args" in ins:
            ins["args"] = [new[a] for a in ins["args"]]
        if ins.get("guard") is not None:
            ins["guard"] = new[ins["guard"]]
        if "id" in ins:
            new[ins["id"]] = len(new)
            ins["id"] = new[ins["id"]]
    for o in outputs:
        o["value"] = new[o["value"]]
