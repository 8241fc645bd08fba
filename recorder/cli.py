"""The `scorebook` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from projections.scores import scores_json
from recorder import auth
from recorder.db import make_engine
from recorder.errors import StoreError
from recorder.hashchain import check_chain
from recorder.migrate import upgrade
from recorder.store import EventStore, ImportRefused, parse_jsonl, prepare_import

app = typer.Typer(help="Scorebook: record, replay and verify tabletop tile-game matches.", no_args_is_help=True)
token_app = typer.Typer(help="Manage API tokens.", no_args_is_help=True)
app.add_typer(token_app, name="token")

out = Console()
err = Console(stderr=True)

Db = Annotated[
    str | None,
    typer.Option("--db", help="Database URL or SQLite path (default: $SCOREBOOK_DATABASE_URL, else var/scorebook.db)"),
]
At = Annotated[int | None, typer.Option("--at", help="As it was right after this seq")]


def _store(db: str | None) -> EventStore:
    engine = make_engine(db)
    upgrade(engine)
    return EventStore(engine)


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)  # plain: rich would wrap a long reason mid-word
    return typer.Exit(code)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


@app.command()
def serve(
    db: Db = None,
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port")] = 8000,
    demo: Annotated[int, typer.Option(help="On an empty database, first record this many demo matches per game")] = 0,
    print_token: Annotated[bool, typer.Option(help="Print a fresh local recorder token")] = False,
) -> None:
    """Upgrade the schema to head, then serve the API (and the dashboard) on one port."""
    import uvicorn

    from recorder.server import build_app

    store = _store(db)
    if demo:
        from recorder.demo import seed_if_empty

        made = seed_if_empty(store, demo)
        if made:
            out.print(f"Recorded {made} demo matches.")
    if print_token:
        token = auth.create_token(store.engine, "local", "recorder")
        out.print(f"Local recorder token (shown once): [bold]{token}[/bold]", highlight=False)
        out.print(
            f"  curl -H 'Authorization: Bearer {token}' -X POST http://{host}:{port}/api/matches/import "
            "--data-binary @match.jsonl",
            highlight=False,
            soft_wrap=True,
        )
    out.print(f"Scorebook on http://{host}:{port}/  (API docs: http://{host}:{port}/docs)", highlight=False)
    uvicorn.run(build_app(store), host=host, port=port, log_level="warning")


@app.command()
def migrate(db: Db = None) -> None:
    """Upgrade the database schema to head."""
    _store(db)
    out.print("schema at head")


@app.command("import")
def import_(
    files: Annotated[list[Path], typer.Argument(help="Match logs (JSON Lines)", exists=True, dir_okay=False)],
    db: Db = None,
    recorded_by: Annotated[str, typer.Option(help="recorded_by for lines that carry none")] = "cli",
) -> None:
    """Import match logs, each as a new match; prints the new match ids. All files are checked before
    any is stored: one refused line stores nothing."""
    prepared = []
    for f in files:
        try:
            prepared.append(prepare_import(parse_jsonl(f.read_text(encoding="utf-8")), recorded_by))
        except ImportRefused as e:
            raise _fail(f"{f}: {e.message}") from e
        except UnicodeDecodeError as e:
            raise _fail(f"{f}: not UTF-8 text") from e
    store = _store(db)
    for p in prepared:
        out.print(store.store_prepared(p)["match_id"], highlight=False)


@app.command()
def export(
    match_id: str,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write (default stdout)")] = None,
    db: Db = None,
) -> None:
    """Export a match log as JSON Lines, hashes included."""
    try:
        lines = list(_store(db).export_lines(match_id))
    except StoreError as e:
        raise _fail(e.message) from e
    if output:
        output.write_text("".join(lines), encoding="utf-8")
        err.print(f"{len(lines)} events written to {output}", highlight=False)
    else:
        sys.stdout.write("".join(lines))


@app.command()
def scores(
    match_id: str, at: At = None, as_json: Annotated[bool, typer.Option("--json")] = False, db: Db = None
) -> None:
    """A match's scores (at a seq)."""
    try:
        sheet = scores_json(_store(db).fold(match_id, at), match_id)
    except StoreError as e:
        raise _fail(e.message) from e
    if as_json:
        _print_json(sheet)
        return
    table = Table(title=f"{sheet['game']} · seq {sheet['seq']} · {sheet['status'].replace('_', ' ')}")
    table.add_column("player")
    for r in sheet["rounds"]:
        table.add_column(f"R{r['number']}", justify="right")
    table.add_column("total", justify="right", style="bold")
    for p in sheet["players"]:
        mark = " ★" if p["id"] in sheet["winners"] else ""
        table.add_row(p["name"] + mark, *(str(r["scores"].get(p["id"], 0)) for r in sheet["rounds"]), str(p["score"]))
    out.print(table)


@app.command()
def state(match_id: str, at: At = None, db: Db = None) -> None:
    """The reducer's state as JSON (at a seq)."""
    try:
        fold = _store(db).fold(match_id, at)
    except StoreError as e:
        raise _fail(e.message) from e
    assert fold.game is not None
    _print_json({"match_id": match_id, "seq": fold.seq, "state": fold.game.to_json(fold.state)})


@app.command()
def verify(target: Annotated[str, typer.Argument(help="A match id, or an exported file")], db: Db = None) -> None:
    """Check a hash chain: of a stored match, or of an exported file. Exits 1 when broken."""
    path = Path(target)
    if path.is_file():
        try:
            envelopes = [item.obj for item in parse_jsonl(path.read_text(encoding="utf-8"))]
        except ImportRefused as e:
            raise _fail(f"{path}: {e.message}") from e
        result = check_chain(envelopes)
    else:
        try:
            result = _store(db).verify(target)
        except StoreError as e:
            raise _fail(e.message) from e
    _print_json(result.as_json())
    if not result.ok:
        raise typer.Exit(1)


@app.command()
def matches(
    game: Annotated[str | None, typer.Option()] = None,
    player: Annotated[str | None, typer.Option()] = None,
    status: Annotated[str | None, typer.Option()] = None,
    limit: Annotated[int, typer.Option()] = 50,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    db: Db = None,
) -> None:
    """List matches, newest first."""
    items, total = _store(db).list_matches(game, player, status, limit, 0)
    if as_json:
        _print_json({"items": items, "total": total})
        return
    table = Table(title=f"{total} matches")
    for c in ("match id", "game", "players", "status", "winners", "events", "started"):
        table.add_column(c)
    for m in items:
        names = ", ".join(p["name"] for p in m["players"])
        table.add_row(m["match_id"], m["game"], names, m["status"], ", ".join(m["winners"]), str(m["seq"]),
                      m["created_at"][:16].replace("T", " "))
    out.print(table)


@app.command()
def demo(
    matches_per_game: Annotated[int, typer.Option("--matches", help="Matches per game")] = 3,
    seed: Annotated[int, typer.Option(help="Random seed")] = 1,
    db: Db = None,
) -> None:
    """Record demo matches of every game, played by a seeded random legal player."""
    from recorder.demo import record_demo

    made = record_demo(_store(db), matches_per_game, seed)
    out.print(f"Recorded {made} demo matches.")


@token_app.command("create")
def token_create(
    name: str,
    role: Annotated[str, typer.Option(help="recorder, referee or admin")] = "recorder",
    db: Db = None,
) -> None:
    """Create a token; it is printed once and stored only hashed."""
    try:
        token = auth.create_token(_store(db).engine, name, role)
    except ValueError as e:
        raise _fail(str(e)) from e
    sys.stdout.write(token + "\n")


@token_app.command("list")
def token_list(db: Db = None) -> None:
    """List tokens (never their secrets)."""
    _print_json(auth.list_tokens(_store(db).engine))


@token_app.command("revoke")
def token_revoke(token_id: int, db: Db = None) -> None:
    """Revoke a token by id."""
    if not auth.revoke_token(_store(db).engine, token_id):
        raise _fail(f"no active token {token_id}")
    out.print(f"token {token_id} revoked")


if __name__ == "__main__":
    app()
