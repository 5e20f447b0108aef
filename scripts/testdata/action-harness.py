"""Runs the shell steps of action.yml (the reusable GitHub Action) here, as a runner would, with
a bgsim binary standing in for the cached build, to check what GitHub's schema cannot: the
cache key, that `bgsim check` gets the paths and writes the JUnit file, and that the action
ends with check's exit status after the upload.

    python3 scripts/testdata/action-harness.py BGSIM_BINARY

Steps that `uses:` another action (the cache, the upload) are not run; the build step is
skipped as on a cache hit. `${{ ... }}` expressions are replaced from the table below.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

binary = os.path.abspath(sys.argv[1])
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(root, "action.yml")) as f:
    action = yaml.safe_load(f)
steps = {step.get("id", step.get("name")): step for step in action["runs"]["steps"]}


def run(inputs, workspace, temp):
    """Runs the action's shell steps with these inputs; returns (outputs, exit status)."""
    context = {"github.action_path": root, "runner.os": "Linux", "runner.arch": "X64", "runner.temp": temp}
    context.update({f"inputs.{name}": value.get("default", "") for name, value in action["inputs"].items()})
    context.update({f"inputs.{name}": value for name, value in inputs.items()})
    outputs = {}
    for step in action["runs"]["steps"]:
        if "uses" in step or step.get("if") == "steps.cache.outputs.cache-hit != 'true'":
            continue
        output_file = os.path.join(temp, "github-output")
        open(output_file, "w").close()
        env = dict(os.environ, GITHUB_OUTPUT=output_file, RUNNER_TEMP=temp)
        for name, value in step.get("env", {}).items():
            env[name] = re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: context[m.group(1)], value)
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", step["run"]], cwd=workspace, env=env,
                                capture_output=True, text=True)
        if result.returncode != 0:
            return outputs, result.returncode, result.stdout + result.stderr
        with open(output_file) as f:
            for line in f.read().splitlines():
                name, _, value = line.partition("=")
                outputs[f"{step['id']}.{name}"] = value
                context[f"steps.{step['id']}.outputs.{name}"] = value
    return outputs, 0, ""


def expect(condition, message):
    if not condition:
        sys.exit(f"action-harness: {message}")


with tempfile.TemporaryDirectory() as temp:
    os.makedirs(os.path.join(temp, "bgsim-action", "bin"))
    shutil.copy(binary, os.path.join(temp, "bgsim-action", "bin", "bgsim"))
    workspace = os.path.join(temp, "workspace")
    os.makedirs(os.path.join(workspace, "Scenarios"))
    shutil.copy(os.path.join(root, "Scenarios", "relaunch-after-termination.json"), os.path.join(workspace, "Scenarios"))
    shutil.copy(os.path.join(root, "Scenarios", "force-quit.json"), os.path.join(workspace, "force-quit.json"))

    outputs, status, log = run({}, workspace, temp)
    expect(status == 0, f"the default inputs on passing scenarios failed ({status}):\n{log}")
    key = outputs.get("key.key", "")
    expect(re.fullmatch(r"bgsim-Linux-X64-swift-\h{16}-sources-\h{16}".replace(r"\h", "[0-9a-f]"), key),
           f"unexpected cache key {key!r}")
    expect(outputs.get("check.exit-code") == "0", f"check's exit code output is {outputs.get('check.exit-code')!r}")
    with open(os.path.join(workspace, "bgsim-junit.xml")) as f:
        junit = f.read()
    expect('name="relaunch-after-termination"' in junit or "relaunch-after-termination" in junit,
           "the JUnit file does not name the scenario")

    # Two paths in one input, a JUnit path of the caller's choosing.
    outputs, status, log = run({"path": "Scenarios\nforce-quit.json", "junit-path": "out.xml"}, workspace, temp)
    expect(status == 0, f"two paths failed ({status}):\n{log}")
    with open(os.path.join(workspace, "out.xml")) as f:
        expect(f.read().count("<testcase") == 2, "out.xml does not hold both scenarios")

    # A failing expectation: the check step records 1 and the last step fails the job with it.
    with open(os.path.join(workspace, "Scenarios", "relaunch-after-termination.json")) as f:
        text = f.read()
    broken = text.replace('"by": "1h"', '"by": "1s"', 1)
    expect(broken != text, "could not break the scenario's first deadline")
    with open(os.path.join(workspace, "Scenarios", "broken.json"), "w") as f:
        f.write(broken.replace('"name": "relaunch-after-termination"', '"name": "broken"'))
    outputs, status, log = run({}, workspace, temp)
    expect(status == 1 and outputs.get("check.exit-code") == "1",
           f"a failing scenario ended the action with {status} (check output {outputs.get('check.exit-code')!r})")
    expect("::error" in log or "exited with status 1" in log, f"no failure message:\n{log}")
    expect(outputs.get("key.key") == key, "the cache key changed between runs of the same sources")
print("action-harness: action.yml's steps key the build, check the paths given, write the JUnit file and fail as check does")
