"""The man page and the bash, zsh and fish completions that scripts/package/helpdoc.py makes from the real
binary's --help, read back by groff, man, bash, zsh and fish themselves.

Run: WATERFALL_BIN=.build/debug/waterfall .venv/bin/python -m pytest -q Tests/Package
"""
import os
import re
import subprocess


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("WATERFALL_BIN", os.path.join(REPO, ".build/debug/waterfall")))
HELPDOC = os.path.join(REPO, "scripts/package/helpdoc.py")


def made(kind, tmp_path, epoch="0"):
    text = subprocess.run([HELPDOC, BINARY, kind], capture_output=True, text=True, check=True,
                          env={**os.environ, "SOURCE_DATE_EPOCH": epoch}).stdout
    path = tmp_path / ("waterfall." + kind)
    path.write_text(text)
    return path


def commands():
    """The commands `waterfall --help` lists, read here on their own."""
    text = subprocess.run([BINARY, "--help"], capture_output=True, text=True, check=True).stdout
    listed = text.split("Commands:\n")[1].split("\n\n")[0]
    return [line.split()[0] for line in listed.splitlines()]


def usage_options(command):
    """The options a command's usage lines name (`[-o OUTPUT]`, `[--report json|FILE]`)."""
    text = subprocess.run([BINARY, command, "--help"], capture_output=True, text=True, check=True).stdout
    usage = text.split("\n\n")[0]
    return sorted(set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", usage)))


def test_the_man_page_has_every_command_and_every_option_its_usage_names(tmp_path):
    page = made("man", tmp_path)
    rendered = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-P-c", "-rLL=100n", str(page)],
                              capture_output=True, text=True, check=True)
    assert rendered.stderr == "", rendered.stderr
    text = re.sub(r".\x08", "", rendered.stdout).replace("\u2010", "-").replace("\u2212", "-")
    assert len(commands()) >= 6
    sections = re.split(r"\n(?=WATERFALL [A-Z]+\n)", text)
    for command in commands():
        section = next((s for s in sections if s.startswith("WATERFALL " + command.upper() + "\n")), None)
        assert section, f"no section for {command}"
        for option in usage_options(command):
            assert option in section, f"{option} of {command} is not in its section"


def test_the_man_page_is_the_same_bytes_and_dated_by_source_date_epoch(tmp_path):
    first = made("man", tmp_path, epoch="31536000").read_bytes()
    assert made("man", tmp_path, epoch="31536000").read_bytes() == first
    assert b'.TH WATERFALL 1 "1971-01-01" "waterfall ' in first
    # man renders it, and mandb reads its whatis line from NAME (lexgrog is its parser).
    shown = subprocess.run(["man", "-l", str(tmp_path / "waterfall.man")], capture_output=True, text=True,
                           env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "100"}, check=True).stdout
    assert re.search(r"NAME\s+waterfall\s+-\s+turns a folder of photos into a waterfall", shown), shown[:400]
    whatis = subprocess.run(["lexgrog", str(tmp_path / "waterfall.man")], capture_output=True, text=True).stdout
    assert "waterfall - turns a folder of photos" in whatis, whatis


def bash_completes(script, *words):
    """COMPREPLY for the command line `words` (the last word being the one completed)."""
    program = 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _waterfall; printf "%s\\n" "${COMPREPLY[@]}"'
    run = subprocess.run(["bash", "--norc", "-c", program, str(script), "waterfall", *words],
                         capture_output=True, text=True, check=True, cwd=os.path.join(REPO, "Tests"))
    return run.stdout.split()


def test_bash_completes_commands_options_values_and_folders(tmp_path):
    script = made("bash", tmp_path)
    assert bash_completes(script, "") == commands() + ["-h", "--help", "-v", "--version"]
    assert bash_completes(script, "bu") == ["build"]
    assert bash_completes(script, "build", "--cache") == ["--cache-dir"]
    # serve takes every option of build ("any option of 'waterfall build'").
    assert bash_completes(script, "serve", "--cache") == ["--cache-dir"]
    assert bash_completes(script, "serve", "--po") == ["--port"]
    assert bash_completes(script, "layout", "--placement", "r") == ["round-robin"]
    assert "json" in bash_completes(script, "build", "--report", "")
    # A folder after -o, after an INPUT-taking command; nothing offered for a number.
    assert bash_completes(script, "build", "-o", "Pa") == ["Package"]
    assert bash_completes(script, "build", "Pa") == ["Package"]
    assert bash_completes(script, "inspect", "Package/test_h") == ["Package/test_helpdoc.py"]
    assert bash_completes(script, "build", "--jobs", "") == []


def test_zsh_reads_the_specs_as_meant(tmp_path):
    script = made("zsh", tmp_path)
    subprocess.run(["zsh", "-n", str(script)], check=True)
    # _arguments and _describe replaced by stubs that print what they are given, after zsh's own quoting
    # and brace expansion.
    program = ('source "$0" >/dev/null 2>&1; _arguments() { print -rl -- "$@"; state=argument };'
               ' _describe() { print -rl -- "$@" }; words=("${@:1}"); _waterfall')
    build = subprocess.run(["zsh", "-f", "-c", program, str(script), "build", "--ou"], capture_output=True,
                           text=True, check=True).stdout.splitlines()
    assert "(-o --output)--output[where the site goes]:DIR:_files -/" in build
    assert "(-o --output)-o[where the site goes]:DIR:_files -/" in build
    assert any(line.startswith("--config[") and line.endswith(":FILE:_files") for line in build)
    layout = subprocess.run(["zsh", "-f", "-c", program, str(script), "layout"], capture_output=True,
                            text=True, check=True).stdout.splitlines()
    assert any(line.startswith("--placement[") and line.endswith(":(balanced shortest round-robin)") for line in layout)


def fish_completes(script, line):
    run = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"], capture_output=True,
                         text=True, check=True, cwd=os.path.join(REPO, "Tests"))
    return [entry.split("\t")[0] for entry in run.stdout.splitlines()]


def test_fish_completes_commands_options_and_values(tmp_path):
    script = made("fish", tmp_path)
    subprocess.run(["fish", "--no-config", "-n", str(script)], check=True)
    assert sorted(fish_completes(script, "waterfall ")) == sorted(commands())
    assert fish_completes(script, "waterfall build --cac") == ["--cache-dir"]
    assert fish_completes(script, "waterfall serve --po") == ["--port"]
    assert fish_completes(script, "waterfall layout --placement r") == ["round-robin"]
    assert "Package/" in fish_completes(script, "waterfall build Pa")
