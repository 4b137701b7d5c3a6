"""The GitHub Action (action.yml) run here as the runner would: its `run:` steps in order with bash
(`bash --noprofile --norc -eo pipefail`, as `shell: bash` does), every `${{ … }}` replaced by a local value,
each step's `if:` evaluated, and the actions it uses stood in for by local equivalents (a cache store in a
folder keyed as actions/cache keys it, artifacts in a folder). Any expression or action this file does not
know fails the test, so a change to action.yml has to be understood here too. The real binary builds a few
fixture photos; the GitLab template's job scripts run the same way.

Run: WATERFALL_BIN=.build/debug/waterfall .venv/bin/python -m pytest -q Tests/Action
"""
import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess

import pytest
import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("WATERFALL_BIN", os.path.join(REPO, ".build/debug/waterfall")))
PHOTOS = ["SampleGallery/cameraman.jpg", "SampleGallery/chelsea-cutout.png", "SampleGallery/coffee-cup.jpg",
          "SampleGallery/coffee-cup.txt", "SampleGallery/Phone/chelsea-pan.gif"]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
HASH_PHOTOS = "hashFiles(format('{0}/**', inputs.folder))"


def load(path):
    with open(os.path.join(REPO, path)) as file:
        return yaml.safe_load(file)


def photos(folder):
    os.makedirs(folder)
    for path in PHOTOS:
        shutil.copy(os.path.join(REPO, path), folder)


class Runner:
    """One job running the action: a workspace, RUNNER_TEMP, and the stores that outlive a job (the cache
    service and the workflow run's artifacts), shared between the jobs of a test."""

    def __init__(self, root, name, inputs, stores):
        self.workspace = os.path.join(root, name, "workspace")
        self.temp = os.path.join(root, name, "temp")
        os.makedirs(self.temp)
        os.makedirs(self.workspace, exist_ok=True)
        action = load("action.yml")
        self.steps = action["runs"]["steps"]
        self.inputs = {key: str(spec.get("default", "")) for key, spec in action["inputs"].items()}
        unknown = set(inputs) - set(self.inputs)
        assert not unknown, f"not inputs of action.yml: {unknown}"
        self.inputs.update(inputs)
        for key, spec in action["inputs"].items():
            assert not spec.get("required") or self.inputs[key], f"input {key} is required"
        self.caches, self.artifacts = stores
        self.outputs, self.outcomes = {}, {}
        self.summary = os.path.join(self.temp, "summary.md")
        self.log = []
        self.pages = None

    # MARK: Expressions

    def value(self, expression):
        if expression.startswith("inputs."):
            return self.inputs[expression[len("inputs."):]]
        fixed = {"github.action_path": REPO, "github.workspace": self.workspace, "runner.temp": self.temp,
                 "runner.os": "Linux"}
        if expression in fixed:
            return fixed[expression]
        if expression == HASH_PHOTOS:
            return self.hash_photos()
        match = re.fullmatch(r"steps\.([\w-]+)\.(outputs\.([\w-]+)|outcome)", expression)
        if match:
            if match.group(3):
                return self.outputs.get(match.group(1), {}).get(match.group(3), "")
            return self.outcomes.get(match.group(1), "skipped")
        raise AssertionError(f"action.yml uses an expression this test does not know: {expression}")

    def substitute(self, text):
        if isinstance(text, bool):  # YAML's true, as the runner hands it to an action
            return "true" if text else "false"
        return EXPRESSION.sub(lambda match: self.value(match.group(1)), str(text))

    def hash_photos(self):
        """Stands in for hashFiles: a digest of every file's bytes under the folder, in path order."""
        digest = hashlib.sha256()
        folder = os.path.join(self.workspace, self.inputs["folder"])
        for base, _, names in sorted(os.walk(folder)):
            for name in sorted(names):
                with open(os.path.join(base, name), "rb") as file:
                    digest.update(hashlib.sha256(file.read()).digest())
        return digest.hexdigest()

    def condition(self, text, failed):
        """An `if:` of the forms action.yml uses: terms joined by &&, each always(), or A == 'x', A != 'x'."""
        if text is None:
            return not failed
        text = EXPRESSION.sub(lambda match: match.group(1), str(text))
        result, always = True, False
        for term in (part.strip() for part in text.split("&&")):
            if term == "always()":
                always = True
                continue
            match = re.fullmatch(r"([\w.-]+) (==|!=) '([^']*)'", term)
            assert match, f"action.yml has an if: term this test does not know: {term}"
            equal = self.value(match.group(1)) == match.group(3)
            result = result and (equal if match.group(2) == "==" else not equal)
        return result and (always or not failed)

    # MARK: Steps

    def run(self):
        """Runs every step as the runner would; returns the name of the step that failed, if one did."""
        failed = None
        for step in self.steps:
            key = step.get("id") or step["name"]
            if not self.condition(step.get("if"), failed):
                self.outcomes[key] = "skipped"
                continue
            self.log.append(step["name"])
            ok = self.shell(step, key) if "run" in step else self.uses(step, key)
            self.outcomes[key] = "success" if ok else "failure"
            failed = failed or (None if ok else step["name"])
        return failed

    def shell(self, step, key):
        assert step.get("shell") == "bash", f"{step['name']}: every run step names shell: bash"
        output = os.path.join(self.temp, f"output-{len(self.log)}")
        open(output, "w").close()
        env = {"PATH": os.environ["PATH"], "HOME": self.temp, "LANG": "C.UTF-8", "GITHUB_OUTPUT": output,
               "GITHUB_STEP_SUMMARY": self.summary, "RUNNER_TEMP": self.temp, "GITHUB_WORKSPACE": self.workspace}
        env.update({name: self.substitute(value) for name, value in (step.get("env") or {}).items()})
        script = os.path.join(self.temp, f"step-{len(self.log)}.sh")
        with open(script, "w") as file:
            file.write(self.substitute(step["run"]))
        run = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=self.workspace,
                             env=env, capture_output=True, text=True, timeout=300)
        self.log.append(run.stdout + run.stderr)
        with open(output) as file:
            self.outputs[key] = dict(line.split("=", 1) for line in file.read().splitlines() if "=" in line)
        return run.returncode == 0

    def uses(self, step, key):
        action, _, version = step["uses"].partition("@")
        given = {name: self.substitute(value) for name, value in (step.get("with") or {}).items()}
        known = {"actions/cache/restore": "v4", "actions/cache/save": "v4", "actions/download-artifact": "v4",
                 "actions/upload-artifact": "v4", "actions/upload-pages-artifact": "v3"}
        assert known.get(action) == version, f"action.yml uses {step['uses']}, which this test does not know"
        path = os.path.join(self.workspace, given.get("path", ""))
        if action == "actions/cache/restore":
            keys = [given["key"]] + given.get("restore-keys", "").split()
            found = next((k for k in keys if k in self.caches), None) or next(
                (stored for prefix in keys[1:] for stored in sorted(self.caches) if stored.startswith(prefix)), None)
            if found:
                shutil.copytree(self.caches[found], path, symlinks=True)
            self.outputs[key] = {"cache-hit": "true" if found == given["key"] else "false"}
        elif action == "actions/cache/save":
            assert given["key"] not in self.caches, "the same cache key saved twice (actions/cache refuses it)"
            self.caches[given["key"]] = os.path.join(self.temp, "..", "saved-cache")
            shutil.copytree(path, self.caches[given["key"]], symlinks=True)
        elif action == "actions/upload-artifact":
            self.artifacts[given["name"]] = os.path.join(self.temp, "..", "artifact")
            shutil.copytree(path, self.artifacts[given["name"]], symlinks=True)
        elif action == "actions/download-artifact":
            assert given["merge-multiple"] == "true"
            pattern = re.compile(given["pattern"].replace("*", ".*"))
            for name in (n for n in sorted(self.artifacts) if pattern.fullmatch(n)):
                shutil.copytree(self.artifacts[name], path, symlinks=True, dirs_exist_ok=True)
        else:
            self.pages = path
        return True


def report(runner):
    with open(os.path.join(runner.workspace, runner.inputs["report"])) as file:
        return json.load(file)


@pytest.fixture
def stores():
    return {}, {}


def job(tmp_path, name, stores, **inputs):
    runner = Runner(str(tmp_path), name, {"folder": "photos", "waterfall": BINARY, **inputs}, stores)
    photos(os.path.join(runner.workspace, "photos"))
    return runner


def test_a_whole_build_publishes_the_site_without_its_bookkeeping_and_keeps_the_cache(tmp_path, stores):
    runner = job(tmp_path, "first", stores, formats="webp,jpeg", args="--title Herons --zip")
    assert runner.run() is None, "\n".join(runner.log)
    built = report(runner)
    assert built["status"] == "ok" and built["photos"] == 4 and built["skipped"] == [], built
    site = os.path.join(runner.workspace, "_site")
    with open(os.path.join(site, "index.html")) as file:
        page = file.read()
    assert "Herons" in page and ".webp" in page
    # The Pages artifact: the site, but not OUTPUT/.waterfall.
    assert runner.pages and os.path.isfile(os.path.join(runner.pages, "index.html"))
    assert os.path.isdir(os.path.join(site, ".waterfall")) and not os.path.exists(os.path.join(runner.pages, ".waterfall"))
    assert filecmp.dircmp(site, runner.pages, ignore=[".waterfall"]).diff_files == []
    assert [key for key in stores[0]] == [f"waterfall-Linux--site-{runner.hash_photos()}"]
    assert "Upload this shard's cache" not in runner.log
    with open(runner.summary) as file:
        assert "### Waterfall" in file.read()

    # The next run, in a fresh workspace, restores the cache: nothing is made again, and nothing is saved
    # again under the same key.
    again = job(tmp_path, "second", stores, formats="webp,jpeg", args="--title Herons --zip")
    assert again.run() is None, "\n".join(again.log)
    assert again.outputs["restore"]["cache-hit"] == "true" and "Save the cache" not in again.log
    assert report(again)["images"]["made"] == 0 and report(again)["images"]["kept"] > 0


def test_shards_make_the_images_and_the_merging_job_writes_the_same_site(tmp_path, stores):
    whole = job(tmp_path, "whole", ({}, {}))
    assert whole.run() is None, "\n".join(whole.log)
    for shard in ("1", "2"):
        part = job(tmp_path, "shard-" + shard, stores, shards="2", shard=shard)
        assert part.run() is None, "\n".join(part.log)
        assert "Upload the site for Pages" not in part.log and part.pages is None
        assert not os.path.exists(os.path.join(part.workspace, "_site", "index.html"))
    assert sorted(stores[1]) == ["waterfall-cache-1", "waterfall-cache-2"]
    assert sorted(stores[0]) == [f"waterfall-Linux--shard-{k}-of-2-{whole.hash_photos()}" for k in "12"]
    merge = job(tmp_path, "merge", stores, shards="2")
    assert merge.run() is None, "\n".join(merge.log)
    assert report(merge)["images"]["made"] == 0
    difference = filecmp.dircmp(whole.pages, merge.pages)
    assert not (difference.diff_files or difference.left_only or difference.right_only), difference.report()


def test_a_bad_photo_fails_the_strict_build_names_it_and_still_saves_the_cache(tmp_path, stores):
    runner = job(tmp_path, "bad", stores)
    with open(os.path.join(runner.workspace, "photos", "broken.jpg"), "wb") as file:
        file.write(b"\xff\xd8\xff\xe0 not a JPEG")
    assert runner.run() == "Build the gallery"
    assert report(runner)["status"] == "failed"
    with open(runner.summary) as file:
        assert "broken.jpg" in file.read()
    assert "Save the cache" in runner.log and "Upload the site for Pages" not in runner.log


def test_every_input_action_yml_uses_is_declared_and_documented():
    action = load("action.yml")
    text = open(os.path.join(REPO, "action.yml")).read()
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used <= set(action["inputs"]), used - set(action["inputs"])
    assert all(spec.get("description") for spec in action["inputs"].values())
    with open(os.path.join(REPO, "docs/ci.md")) as file:
        docs = file.read()
    for name in action["inputs"]:
        assert f"`{name}`" in docs, f"docs/ci.md does not name the input {name}"


# MARK: GitLab

GITLAB = "ci/gitlab/waterfall.gitlab-ci.yml"


def gitlab_job(template, name):
    """A job of the template with its `extends` resolved (hidden jobs merged, the job's own keys last)."""
    job = dict(template[name])
    parents = job.pop("extends", [])
    merged = {}
    for parent in [parents] if isinstance(parents, str) else parents:
        for key, value in gitlab_job(template, parent).items():
            merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) else value
    for key, value in job.items():
        merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) else value
    return merged


def run_gitlab(template, name, workspace, variables):
    """The job's before_script and script lines as one bash script (the runner's shell stops at the first
    failing line), with the job's variables, then the user's, in the environment."""
    job = gitlab_job(template, name)
    lines = list(job.get("before_script", [])) + list(job["script"])
    env = {"PATH": os.environ["PATH"], "HOME": workspace, "LANG": "C.UTF-8", "CI_PROJECT_DIR": workspace,
           **{key: str(value) for key, value in (job.get("variables") or {}).items()}, **variables}
    run = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", "\n".join(lines)],
                         cwd=workspace, env=env, capture_output=True, text=True, timeout=300)
    return job, run


def test_the_gitlab_template_builds_the_pages_site_and_the_shards_merge(tmp_path):
    template = load(GITLAB)
    site = tmp_path / "site"
    photos(str(site / "photos"))
    job, run = run_gitlab(template, ".waterfall", str(site), {"WATERFALL_FOLDER": "photos", "WATERFALL_BIN": BINARY})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "public" in job["artifacts"]["paths"] and job["cache"]["paths"] == [".waterfall-cache/"]
    assert (site / "public" / "index.html").is_file() and not (site / "public" / ".waterfall").exists()
    with open(site / "waterfall-report.json") as file:
        assert json.load(file)["photos"] == 4

    # Two parallel shard jobs (CI_NODE_INDEX of CI_NODE_TOTAL), each in its own clone, then the site job
    # with their artifacts extracted into its clone, one after the other, as GitLab does.
    merge = tmp_path / "merge"
    photos(str(merge / "photos"))
    for index in ("1", "2"):
        clone = tmp_path / ("shard-" + index)
        photos(str(clone / "photos"))
        job, run = run_gitlab(template, ".waterfall-shard", str(clone), {
            "WATERFALL_FOLDER": "photos", "WATERFALL_BIN": BINARY, "CI_NODE_INDEX": index, "CI_NODE_TOTAL": "2"})
        assert run.returncode == 0, run.stdout + run.stderr
        assert job["artifacts"]["paths"] == ["waterfall-shards/"]
        shutil.copytree(clone / "waterfall-shards", merge / "waterfall-shards", dirs_exist_ok=True)
    job, run = run_gitlab(template, ".waterfall-site", str(merge), {"WATERFALL_FOLDER": "photos", "WATERFALL_BIN": BINARY})
    assert run.returncode == 0, run.stdout + run.stderr
    with open(merge / "waterfall-report.json") as file:
        assert json.load(file)["images"]["made"] == 0
    difference = filecmp.dircmp(str(site / "public"), str(merge / "public"))
    assert not (difference.diff_files or difference.left_only or difference.right_only), difference.report()
