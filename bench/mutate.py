"""Mutation testing: does a one-token change to the code make its own tests fail?

Run: .venv/bin/python bench/mutate.py bot/clock.py tests/test_clock.py
     [--only MatchClock.flagged,MatchClock.after_move] [--sample 80] [--seed 1] [--list] [--jobs 2]

A small AST mutator of our own (mutmut wants a setup.cfg layout and rewrites files in place; this needs
nothing beyond the standard library). Each mutant changes one thing in the module: a comparison
(`<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`, `in` ↔ `not in`, `is` ↔ `is not`), an arithmetic or augmented
operator (`+` ↔ `-`, `*` ↔ `/`, `//` → `/`, `%` → `*`), `and` ↔ `or`, a dropped `not`, a number (n → n + 1,
and 1 → 0), `True` ↔ `False`, a string that is not a docstring (→ "XX"), `min` ↔ `max`, a `return x` →
`return None`, a call statement removed, and a `break`/`continue` swapped. Mutants are applied to a copy of
the project in a temporary folder (the working tree is never touched), and the named tests run there with
`pytest -x`; a mutant is killed when they fail or take over 4 times as long as without it. `--only` limits
mutants to functions or classes by (qualified) name; `--sample` picks that many at random (seeded).

Prints each survivor (line, what changed) and the score; judge the survivors by hand: some are equivalent
(the change cannot alter behaviour), and docs/mutation.md says how to record them.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Mod: ast.Mult,
    ast.And: ast.Or,
    ast.Or: ast.And,
}
SYMBOLS = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.And: "and",
    ast.Or: "or",
}


@dataclass(frozen=True)
class Mutant:
    number: int  # the n-th mutable spot, in a walk of the module's tree
    variant: int  # which change at that spot
    line: int
    where: str  # the enclosing function or class
    what: str


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (never mutated: they cannot change behaviour)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
        if isinstance(node, (ast.Module, ast.ClassDef)):  # attribute docstrings: a string after an assignment
            for before, after in zip(node.body, node.body[1:], strict=False):
                if (
                    isinstance(before, (ast.Assign, ast.AnnAssign))
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    found.add(id(after.value))
    return found


def changes(node: ast.AST, skip: set[int]) -> list[str]:
    """The one-token changes possible at this node, described; [] if none."""
    if isinstance(node, ast.Compare):
        return [f"{SYMBOLS[type(op)]} -> {SYMBOLS[SWAPS[type(op)]]}" for op in node.ops if type(op) in SWAPS]
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in SWAPS:
        return [f"{SYMBOLS[type(node.op)]} -> {SYMBOLS[SWAPS[type(node.op)]]}"]
    if isinstance(node, ast.BoolOp):
        return [f"{SYMBOLS[type(node.op)]} -> {SYMBOLS[SWAPS[type(node.op)]]}"]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ["not x -> x"]
    if isinstance(node, ast.Constant) and id(node) not in skip:
        value = node.value
        if isinstance(value, bool):
            return [f"{value} -> {not value}"]
        if isinstance(value, (int, float)):
            return [f"{value!r} -> {value + 1!r}"] + ([f"{value!r} -> 0"] if value == 1 else [])
        if isinstance(value, str) and value:
            return [f"{value[:30]!r} -> 'XX'"]
    if isinstance(node, ast.Name) and node.id in ("min", "max"):
        return [f"{node.id} -> {'max' if node.id == 'min' else 'min'}"]
    if isinstance(node, ast.Return) and node.value is not None and not is_none(node.value):
        return ["return x -> return None"]
    if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
        return ["call removed"]
    if isinstance(node, ast.Break):
        return ["break -> continue"]
    if isinstance(node, ast.Continue):
        return ["continue -> break"]
    return []


def apply(node: ast.AST, variant: int) -> ast.AST | None:
    """Change `node` in place as `changes` described its `variant`; a replacement node, or None."""
    if isinstance(node, ast.Compare):
        spots = [i for i, op in enumerate(node.ops) if type(op) in SWAPS]
        node.ops[spots[variant]] = SWAPS[type(node.ops[spots[variant]])]()
    elif isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)):
        node.op = SWAPS[type(node.op)]()  # type: ignore[assignment]
    elif isinstance(node, ast.UnaryOp):
        return node.operand
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            node.value = not value
        elif isinstance(value, (int, float)):
            node.value = value + 1 if variant == 0 else 0
        else:
            node.value = "XX"
    elif isinstance(node, ast.Name):
        node.id = "max" if node.id == "min" else "min"
    elif isinstance(node, ast.Return):
        node.value = None
    elif isinstance(node, ast.Expr):
        return ast.Pass()
    elif isinstance(node, ast.Break):
        return ast.Continue()
    elif isinstance(node, ast.Continue):
        return ast.Break()
    return None


def spots(tree: ast.Module) -> Iterator[tuple[ast.AST, ast.AST | None, str, str]]:
    """(node, parent, enclosing qualified name, field) for every node, in a fixed order."""

    def walk(node: ast.AST, parent: ast.AST | None, where: str) -> Iterator[tuple[ast.AST, ast.AST | None, str, str]]:
        if logging_call(node) or (isinstance(node, ast.Expr) and logging_call(node.value)):
            return  # what the log says, or whether it says it, is no behaviour a player sees
        if isinstance(node, ast.Assert):
            return  # asserts state what the code already guarantees (for the type checker)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            where = f"{where}.{node.name}" if where else node.name
        yield node, parent, where, ""
        for child in ast.iter_child_nodes(node):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and child in node.decorator_list:
                continue
            if isinstance(child, (ast.AnnAssign, ast.arg)) or isinstance(node, ast.JoinedStr):
                continue  # annotations and f-string pieces: no behaviour to change (f-string values: below)
            yield from walk(child, node, where)
        if isinstance(node, ast.JoinedStr):
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    yield from walk(value.value, value, where)
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            yield from walk(node.value, node, where)

    for statement in tree.body:
        yield from walk(statement, tree, "")


def is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def logging_call(node: ast.AST) -> bool:
    """`log.info(...)`, `logger.exception(...)`: calls on a logger."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("log", "logger", "_log", "logging")
    )


def mutants(source: str, only: list[str]) -> list[Mutant]:
    tree = ast.parse(source)
    skip = docstrings(tree)
    found = []
    for number, (node, _parent, where, _) in enumerate(spots(tree)):
        if only and not any(where == name or where.startswith(name + ".") for name in only):
            continue
        if isinstance(node, ast.Expr) and id(getattr(node, "value", None)) in skip:
            continue
        for variant, what in enumerate(changes(node, skip)):
            found.append(Mutant(number, variant, getattr(node, "lineno", 0), where or "<module>", what))
    return found


def mutated_source(source: str, mutant: Mutant) -> str:
    tree = ast.parse(source)
    for number, (node, parent, _where, _) in enumerate(spots(tree)):
        if number != mutant.number:
            continue
        replacement = apply(node, mutant.variant)
        if replacement is not None and parent is not None:
            replace_child(parent, node, replacement)
        return ast.unparse(ast.fix_missing_locations(tree))
    raise ValueError(mutant)


def replace_child(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            return
        if isinstance(value, list):
            for i, item in enumerate(value):
                if item is old:
                    value[i] = new
                    return


def project_copy(into: Path) -> Path:
    """The project's files (tracked and new, not ignored) copied into `into`."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for name in listed:
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def run_tests(folder: Path, tests: list[str], timeout: float | None) -> tuple[bool, float]:
    """(passed, seconds) for the tests in a copy of the project; a timeout counts as a failure."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(folder)}
    began = time.perf_counter()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *tests],
            cwd=folder,
            env=env,
            capture_output=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - began
    return result.returncode == 0, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="the file to mutate, e.g. bot/clock.py")
    parser.add_argument("tests", nargs="+", help="the test files (or node ids) that belong to it")
    parser.add_argument("--only", default="", help="comma-separated function or class names (qualified)")
    parser.add_argument("--sample", type=int, default=0, help="at most this many mutants, picked at random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="copies of the project testing at once")
    parser.add_argument("--list", action="store_true", help="only list the mutants")
    args = parser.parse_args()
    source = (ROOT / args.module).read_text(encoding="utf-8")
    only = [name for name in args.only.split(",") if name]
    every = mutants(source, only)
    chosen = every
    if args.sample and args.sample < len(every):
        chosen = random.Random(args.seed).sample(every, args.sample)
    chosen.sort(key=lambda m: (m.number, m.variant))
    if args.list:
        for mutant in chosen:
            print(f"{args.module}:{mutant.line} {mutant.where}: {mutant.what}")
        print(f"{len(chosen)} of {len(every)} mutants")
        return
    with tempfile.TemporaryDirectory(prefix="mutate-") as scratch:
        folders = [project_copy(Path(scratch) / f"copy{n}") for n in range(max(1, args.jobs))]
        passed, baseline = run_tests(folders[0], args.tests, None)
        if not passed:
            raise SystemExit(f"The tests fail without any mutant: {' '.join(args.tests)}")
        timeout = max(10.0, 4 * baseline)
        free = list(folders)

        def trial(mutant: Mutant) -> tuple[Mutant, bool]:
            folder = free.pop()
            try:
                (folder / args.module).write_text(mutated_source(source, mutant), encoding="utf-8")
                survived, _ = run_tests(folder, args.tests, timeout)
            finally:
                (folder / args.module).write_text(source, encoding="utf-8")
                free.append(folder)
            return mutant, survived

        began = time.perf_counter()
        with ThreadPoolExecutor(len(folders)) as pool:
            results = list(pool.map(trial, chosen))
    survivors = [m for m, survived in results if survived]
    for mutant in survivors:
        print(f"survived  {args.module}:{mutant.line} {mutant.where}: {mutant.what}")
    killed = len(results) - len(survivors)
    score = 100 * killed / len(results) if results else 100.0
    print(
        f"{args.module}: {killed} of {len(results)} mutants killed ({score:.0f}%), {len(every)} in all"
        f"{' in ' + args.only if only else ''}; {time.perf_counter() - began:.0f} s, tests alone {baseline:.1f} s"
    )


if __name__ == "__main__":
    main()
