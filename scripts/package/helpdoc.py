#!/usr/bin/env python3
"""The man page and the shell completions, made from the help text the binary prints: `waterfall --help` and
`waterfall COMMAND --help` for every command its help lists. Nothing here is written by hand, so the
page and the completions say what `--help` says.

Usage: scripts/package/helpdoc.py BINARY man|bash|zsh|fish > FILE
The man page's date is SOURCE_DATE_EPOCH's (UTC), else 1970-01-01: the same input, the same bytes.
"""
import datetime
import os
import re
import subprocess
import sys

ENTRY = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")
CONTINUED = re.compile(r"^\s{3,}(\S.*)$")
OPTION = re.compile(r"^-{1,2}[A-Za-z0-9][A-Za-z0-9-]*$")
# Value names that mean a folder, a file, or a value to type (nothing to complete).
FOLDERS = {"DIR", "INPUT", "OUTPUT"}
FILES = {"FILE", "PATH", "PATH..."}


def help_text(binary, *command):
    run = subprocess.run([binary, *command, "--help"], capture_output=True, text=True, check=True)
    return run.stdout


def blocks(text):
    """The help in blocks: ('usage', lines), ('list', heading, [(term, description)]) or ('text', paragraph)."""
    found = []
    for chunk in re.split(r"\n\s*\n", text.strip("\n")):
        lines = chunk.split("\n")
        if lines[0].startswith("Usage:"):
            found.append(("usage", lines))
            continue
        first_entry = next((i for i, line in enumerate(lines) if ENTRY.match(line)), None)
        if first_entry is None or not lines[first_entry - 1 if first_entry else 0].rstrip().endswith(":"):
            found.append(("text", " ".join(line.strip() for line in lines)))
            continue
        entries = []
        for line in lines[first_entry:]:
            continued = CONTINUED.match(line)
            if continued and entries:
                term, description = entries[-1]
                entries[-1] = (term, (description + " " + continued.group(1)).strip())
            else:
                match = ENTRY.match(line)
                entries.append((match.group(1), match.group(2) or ""))
        found.append(("list", " ".join(line.strip() for line in lines[:first_entry]), entries))
    return found


class Option:
    """One option as a help list gives it: `-o, --output DIR`."""

    def __init__(self, term, description, usage):
        words = term.replace(",", " ").split()
        self.names = [word for word in words if OPTION.match(word)]
        rest = [word for word in words if not OPTION.match(word)]
        self.value = rest[0] if rest else None
        self.description = description
        # A value's choices, where the usage spells them out: `--placement balanced|shortest|round-robin`;
        # `--report json|FILE` takes a choice or a file.
        self.choices, self.choices_and_files = [], False
        for name in self.names:
            match = re.search(re.escape(name) + r" ([a-z][a-z0-9-]*(?:\|[A-Za-z0-9-]+)+)\]", usage)
            if match:
                listed = match.group(1).split("|")
                self.choices = [choice for choice in listed if not choice.isupper()]
                self.choices_and_files = any(choice.isupper() for choice in listed)
                self.value = self.value or "VALUE"

    @property
    def kind(self):
        """What its value is: None (a flag), 'folder', 'file', 'choice' or 'text'."""
        if self.value is None:
            return None
        if self.choices:
            return "choice"
        if self.value in FOLDERS:
            return "folder"
        if self.value in FILES:
            return "file"
        return "text"


class Command:
    def __init__(self, name, term, summary, text):
        self.name, self.summary, self.text = name, summary, text
        self.blocks = blocks(text)
        usage = "\n".join(next((b[1] for b in self.blocks if b[0] == "usage"), []))
        # What its positional arguments are, by the name the command list gives them (`build [INPUT]`).
        argument = (term.split() + [""])[1].strip("[]")
        self.arguments = "folder" if argument in FOLDERS else "file" if argument in FILES else None
        self.options = [Option(term, description, usage)
                        for block in self.blocks if block[0] == "list" for term, description in block[2]
                        if term.startswith("-")]
        # `[any option of 'waterfall build']`: serve takes build's options too.
        self.borrows = re.findall(r"any option of 'waterfall ([a-z-]+)'", usage)


class Program:
    def __init__(self, binary):
        self.binary = binary
        self.text = help_text(binary)
        self.blocks = blocks(self.text)
        self.summary = next(b[1] for b in self.blocks if b[0] == "text")
        listed = next(b[2] for b in self.blocks if b[0] == "list" and b[1].startswith("Commands"))
        self.commands = [Command(term.split()[0], term, summary, help_text(binary, term.split()[0]))
                         for term, summary in listed]
        self.options = [Option(term, description, "") for block in self.blocks
                        if block[0] == "list" and block[1].startswith("Options") for term, description in block[2]]
        by_name = {command.name: command for command in self.commands}
        for command in self.commands:
            for other in command.borrows:
                known = {name for option in command.options for name in option.names}
                command.options += [option for option in by_name[other].options if not set(option.names) & known]


# MARK: The man page

def roff(text):
    """Text for groff: backslashes, dashes as minus signs (options copy and paste), other non-ASCII by code."""
    out = text.replace("\\", "\\e").replace("-", "\\-")
    out = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in out)
    return re.sub(r"^([.'])", r"\\&\1", out, flags=re.M)


def roff_term(term, bold=()):
    """An entry's term: options (and the names in `bold`) in bold, the values they take in italics."""
    words = []
    for word in re.split(r"(\s+|,)", term):
        if OPTION.match(word) or word in bold:
            words.append("\\fB" + roff(word) + "\\fR")
        elif word.strip() and word != ",":
            words.append("\\fI" + roff(word) + "\\fR")
        else:
            words.append(roff(word))
    return "".join(words)


def man_blocks(found, commands):
    lines = []
    for block in found:
        if block[0] == "usage":
            lines += [".PP", ".nf", roff("\n".join(block[1])), ".fi"]
        elif block[0] == "text":
            lines += [".PP", roff(block[1])]
        else:
            heading = block[1].rstrip(":")
            lines += [".SS " + roff(heading)] if len(heading) < 40 else [".PP", roff(block[1])]
            for term, description in block[2]:
                lines += [".TP", roff_term(term, commands), roff(description)]
    return lines


def man_page(program):
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    date = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%d")
    version = subprocess.run([program.binary, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    lines = ['.\\" Generated by scripts/package/helpdoc.py from `waterfall --help` and each command\'s --help.',
             '.TH WATERFALL 1 "%s" "waterfall %s" "User Commands"' % (date, version),
             ".SH NAME", "waterfall \\- " + roff(program.summary.rstrip(".").lower()[0] + program.summary.rstrip(".")[1:]),
             ".SH SYNOPSIS", ".nf"]
    names = [command.name for command in program.commands]
    lines += ["\\fBwaterfall\\fR " + roff_term(command_term(program, command), names) for command in program.commands]
    lines += ["\\fBwaterfall\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR", ".fi", ".SH DESCRIPTION"]
    lines += man_blocks([b for b in program.blocks if b[0] != "usage"], names)
    for command in program.commands:
        lines += [".SH " + roff("WATERFALL " + command.name.upper()), ".PP", roff(command.summary[:1].upper() + command.summary[1:]) + "."]
        lines += man_blocks(command.blocks, names)
    lines += [".SH SEE ALSO", "\\fBffmpeg\\fR(1), and the documentation in the source repository's \\fIdocs\\fR folder."]
    return "\n".join(lines) + "\n"


def command_term(program, command):
    listed = next(b[2] for b in program.blocks if b[0] == "list" and b[1].startswith("Commands"))
    return next(term for term, _ in listed if term.split()[0] == command.name)


# MARK: Completions

def words(options):
    return " ".join(name for option in options for name in option.names)


def bash(program):
    out = ["# bash completion for waterfall; generated by scripts/package/helpdoc.py from its --help.",
           "_waterfall() {",
           '    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command="" i',
           "    for ((i = 1; i < COMP_CWORD; i++)); do",
           '        case ${COMP_WORDS[i]} in -*) ;; *) command=${COMP_WORDS[i]}; break ;; esac',
           "    done",
           "    case $command in",
           '    "") COMPREPLY=($(compgen -W "%s %s" -- "$cur")); return ;;'
           % (" ".join(c.name for c in program.commands), words(program.options))]
    for command in program.commands:
        out.append("    %s)" % command.name)
        out.append("        case $prev in")
        # Options that take a value, grouped by what completes it (nothing, for a value to type).
        actions = {}
        for option in command.options:
            if option.kind is not None:
                actions.setdefault(bash_action(option), []).extend(option.names)
        for action, names in actions.items():
            out.append("        %s) %s; return ;;" % ("|".join(names), action))
        out.append("        esac")
        positional = {"folder": "-d", "file": "-f"}.get(command.arguments)
        out.append('        if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "%s" -- "$cur"))' % words(command.options))
        if positional:
            out.append('        else compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen %s -- "$cur"))' % positional)
        out += ["        fi ;;"]
    out += ["    esac", "}", "complete -F _waterfall waterfall", ""]
    return "\n".join(out)


def bash_action(option):
    files = 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen %s -- "$cur"))'
    if option.choices_and_files:
        return files % ('-W "%s" -f' % " ".join(option.choices))
    return {"folder": files % "-d", "file": files % "-f", "text": ":",
            "choice": 'COMPREPLY=($(compgen -W "%s" -- "$cur"))' % " ".join(option.choices)}[option.kind]


def short(description, quote):
    """The description's first clause, at most 70 characters, without what a completion spec reads as syntax,
    quoted for the shell by `quote`."""
    first = re.split(r"; |: | \(|, e\.g\.", description)[0].strip().rstrip(".")
    first = re.sub(r"[\[\]\\`$\"]", "", first)
    if len(first) > 70:
        first = first[:70].rsplit(" ", 1)[0]
    return quote(first)


def zsh_quote(text):
    return text.replace("'", "'\\''")


def fish_quote(text):
    return text.replace("'", "\\'")


def zsh(program):
    def spec(option):
        names = option.names
        exclusive = "(%s)" % " ".join(names) if len(names) > 1 else ""
        name = "{%s}" % ",".join(names) if len(names) > 1 else names[0]
        action = {None: "", "folder": ":%s:_files -/" % option.value, "file": ":%s:_files" % option.value,
                  "choice": ":%s:(%s)" % (option.value, " ".join(option.choices)), "text": ":%s: " % option.value}
        tail = action[option.kind] if not option.choices_and_files else ":%s:_files" % option.value
        return "'%s'%s'[%s]%s'" % (exclusive, name, short(option.description, zsh_quote), tail)

    out = ["#compdef waterfall", "# zsh completion for waterfall; generated by scripts/package/helpdoc.py from its --help.",
           "_waterfall() {", "    local curcontext=$curcontext state line", "    local -a commands",
           "    commands=(" + " ".join("'%s:%s'" % (c.name, short(c.summary, zsh_quote)) for c in program.commands) + ")",
           "    _arguments -C " + " ".join(spec(o) for o in program.options) + " '1: :->command' '*:: :->argument'",
           "    case $state in", "    command) _describe command commands ;;", "    argument)", "        case $words[1] in"]
    for command in program.commands:
        positional = {"folder": " '*: :_files -/'", "file": " '*: :_files'"}.get(command.arguments, "")
        out.append("        %s) _arguments %s%s ;;" % (command.name, " ".join(spec(o) for o in command.options), positional))
    out += ["        esac ;;", "    esac", "}", '_waterfall "$@"', ""]
    return "\n".join(out)


def fish(program):
    out = ["# fish completion for waterfall; generated by scripts/package/helpdoc.py from its --help.",
           "complete -c waterfall -f"]
    names = " ".join(c.name for c in program.commands)
    for command in program.commands:
        out.append("complete -c waterfall -n 'not __fish_seen_subcommand_from %s' -a %s -d '%s'"
                   % (names, command.name, short(command.summary, fish_quote)))
    for option in program.options:
        out.append("complete -c waterfall -n 'not __fish_seen_subcommand_from %s' %s -d '%s'"
                   % (names, fish_names(option), short(option.description, fish_quote)))
    for command in program.commands:
        condition = "-n '__fish_seen_subcommand_from %s'" % command.name
        if command.arguments == "folder":
            out.append("complete -c waterfall %s -a '(__fish_complete_directories)'" % condition)
        elif command.arguments == "file":
            out.append("complete -c waterfall %s -F" % condition)
        for option in command.options:
            value = {None: "", "folder": " -x -a '(__fish_complete_directories)'", "file": " -r -F",
                     "choice": " -x -a '%s'" % " ".join(option.choices), "text": " -x"}[option.kind]
            if option.choices_and_files:
                value = " -r -F -a '%s'" % " ".join(option.choices)
            out.append("complete -c waterfall %s %s%s -d '%s'" % (condition, fish_names(option), value, short(option.description, fish_quote)))
    return "\n".join(out) + "\n"


def fish_names(option):
    return " ".join(("-l " + name[2:]) if name.startswith("--") else ("-s " + name[1:]) for name in option.names)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in ("man", "bash", "zsh", "fish"):
        sys.exit("usage: helpdoc.py BINARY man|bash|zsh|fish")
    made = {"man": man_page, "bash": bash, "zsh": zsh, "fish": fish}[sys.argv[2]](Program(sys.argv[1]))
    sys.stdout.write(made)
