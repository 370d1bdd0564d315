"""`python3 -m bot` from a Python without the dependencies: it reuses a current .venv at once, installs only
when pyproject.toml changed (or there is no .venv), and when installing fails starts anyway on a .venv that
has what it needs, else stops with one line. Installs and the restart are recorded, not run."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import bot.__main__ as launcher


class Restarted(Exception):
    pass


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """A project folder with a pyproject.toml and no .venv; returns the commands run to install."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    venv = tmp_path / ".venv"
    monkeypatch.setattr(launcher, "ROOT", tmp_path)
    monkeypatch.setattr(launcher, "VENV", venv)
    monkeypatch.setattr(launcher, "VENV_PYTHON", venv / "bin" / "python")
    monkeypatch.setattr(launcher, "STAMP", venv / "boardgame-bot.installed")
    monkeypatch.delenv("BOT_BOOTSTRAPPED", raising=False)
    installs: list[list[str]] = []

    def check_call(args: list[str]) -> int:
        installs.append([str(a) for a in args])
        if args[1:3] == ["-m", "venv"]:
            make_python(venv, has_dependencies=True)
        return 0

    def execv(path: str, args: list[str]) -> None:
        raise Restarted(path, args)

    monkeypatch.setattr(launcher.subprocess, "check_call", check_call)
    monkeypatch.setattr(launcher.os, "execv", execv)
    return installs


def make_python(venv: Path, *, has_dependencies: bool) -> None:
    """A stand-in for .venv's Python: it 'imports' the dependencies (exit 0) or fails to (exit 1)."""
    python = venv / "bin" / "python"
    python.parent.mkdir(parents=True, exist_ok=True)
    python.write_text(f"#!/bin/sh\nexit {0 if has_dependencies else 1}\n", encoding="utf-8")
    python.chmod(0o755)


def stamp(venv: Path) -> None:
    (venv / "boardgame-bot.installed").write_text(launcher.fingerprint() + "\n", encoding="utf-8")


def test_a_current_venv_is_used_without_installing(project: list[list[str]], tmp_path: Path) -> None:
    make_python(tmp_path / ".venv", has_dependencies=True)
    stamp(tmp_path / ".venv")
    with pytest.raises(Restarted) as restarted:
        launcher.bootstrap()
    assert project == []
    assert restarted.value.args[1][1:3] == ["-m", "bot"]


def test_a_changed_pyproject_installs_again_and_stamps(project: list[list[str]], tmp_path: Path) -> None:
    make_python(tmp_path / ".venv", has_dependencies=True)
    stamp(tmp_path / ".venv")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["y"]\n', encoding="utf-8")
    assert not launcher.venv_is_current()
    with pytest.raises(Restarted):
        launcher.bootstrap()
    assert [args[1:4] for args in project] == [["-m", "pip", "install"]]
    assert project[0][-1] == str(tmp_path)
    assert launcher.venv_is_current()


def test_a_fresh_clone_creates_the_venv_then_installs(project: list[list[str]], tmp_path: Path) -> None:
    with pytest.raises(Restarted):
        launcher.bootstrap()
    assert [args[1:3] for args in project] == [["-m", "venv"], ["-m", "pip"]]
    assert launcher.venv_is_current()


def failing_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    def check_call(args: list[str]) -> int:
        raise subprocess.CalledProcessError(1, args)

    monkeypatch.setattr(launcher.subprocess, "check_call", check_call)


def test_offline_with_a_complete_venv_starts_anyway(
    project: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make_python(tmp_path / ".venv", has_dependencies=True)  # installed by the README's test command: no stamp
    failing_pip(monkeypatch)
    with pytest.raises(Restarted):
        launcher.bootstrap()
    assert "starting with the dependencies it already has" in capsys.readouterr().out
    assert not launcher.venv_is_current()  # so the next start tries to install again


def test_offline_without_the_dependencies_is_one_line(
    project: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_python(tmp_path / ".venv", has_dependencies=False)
    failing_pip(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        launcher.bootstrap()
    assert str(stopped.value.code).startswith("Could not install the bot's dependencies into .venv")
    assert "package index" in str(stopped.value.code)


def test_no_restart_loop_when_the_venv_still_lacks_them(
    project: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_python(tmp_path / ".venv", has_dependencies=False)
    stamp(tmp_path / ".venv")
    monkeypatch.setenv("BOT_BOOTSTRAPPED", "1")  # we are the restarted process, and still cannot import them
    with pytest.raises(SystemExit) as stopped:
        launcher.bootstrap()
    assert "still missing" in str(stopped.value.code) and project == []
