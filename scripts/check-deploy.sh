#!/usr/bin/env bash
# Checks the deployment recipes offline:
# - deploy/kubernetes/*.yaml against the Kubernetes API schemas (kubernetes-validate, strict:
#   unknown fields fail; the schemas ship inside the PyPI package, no cluster or network needed
#   once it is installed);
# - the ConfigMap holds exactly Scenarios/podcast-feed-one-per-wake.json;
# - deploy/github-actions/{sweep,explore}.yml and .github/workflows/ci.yml against GitHub's workflow
#   schema, and action.yml (the reusable action) against GitHub's action schema
#   (check-jsonschema's bundled copies);
# - deploy/homebrew/bgsim.rb parses (ruby -c) and loads in scripts/testdata/homebrew-harness.rb,
#   a stand-in for Homebrew's DSL: its tag is the version bgsim prints, its install builds the
#   bgsim product in release (portable on Linux);
# - the shell of the Slurm and Kubernetes scripts parses (bash -n), the explore ones included;
# - deploy/kubernetes/run.sh against a fake kubectl (scripts/testdata/fake-kubectl.sh): it
#   refuses the placeholder digest, merges a sweep that completes, and stops at once, naming
#   the failed indexes and creating no merge Job, when the sweep Job fails.
# - with a bgsim binary (CI passes the release build): action.yml's shell steps run as a runner
#   would (scripts/testdata/action-harness.py), the formula's `test do` block runs against it,
#   and the Slurm explore recipe's array tasks and merge run against it and give one whole
#   `bgsim explore`'s files (scripts/testdata/explore-recipes-harness.sh).
#
#   scripts/check-deploy.sh [BGSIM_BINARY]
#
# Installs python3-venv and ruby (apt) and the two validators (pip, in a throwaway venv) when
# missing.
set -euo pipefail
binary="${1:-}"
cd "$(dirname "$0")/.."

venv="${TMPDIR:-/tmp}/bgsim-deploy-venv"
if [[ ! -x "$venv/bin/kubernetes-validate" || ! -x "$venv/bin/check-jsonschema" ]]; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    echo "installing python3-venv" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check kubernetes-validate check-jsonschema
fi

"$venv/bin/python" - <<'PY'
import os, subprocess, sys, tempfile, yaml

failed = False
with tempfile.TemporaryDirectory() as tmp:
    files = []
    for name in sorted(os.listdir("deploy/kubernetes")):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join("deploy/kubernetes", name)) as f:
            doc = yaml.safe_load(f)
        # kubernetes-validate names resources by metadata.name; Jobs created with
        # `kubectl create` use generateName, which the API schema allows.
        if "name" not in doc["metadata"] and "generateName" in doc["metadata"]:
            doc["metadata"]["name"] = doc["metadata"]["generateName"] + "x"
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            yaml.safe_dump(doc, f)
        files.append(path)
        if doc["kind"] == "ConfigMap":
            for key, text in doc["data"].items():
                with open(os.path.join("Scenarios", key)) as f:
                    if f.read() != text:
                        print(f"deploy/kubernetes/{name}: data.{key} is not Scenarios/{key}; regenerate it", file=sys.stderr)
                        failed = True
    result = subprocess.run([os.path.join(os.path.dirname(sys.executable), "kubernetes-validate"), "--strict", "--quiet", *files])
    failed = failed or result.returncode != 0
sys.exit(1 if failed else 0)
PY
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows deploy/github-actions/sweep.yml \
  deploy/github-actions/explore.yml \
  .github/workflows/ci.yml >/dev/null
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-actions action.yml >/dev/null
for script in deploy/slurm/sweep.sbatch deploy/slurm/merge.sbatch deploy/slurm/explore.sbatch \
  deploy/slurm/explore-merge.sbatch deploy/kubernetes/run.sh scripts/slurm-smoke.sh; do
  bash -n "$script"
done
echo "check-deploy: Kubernetes manifests valid (strict, $("$venv/bin/kubernetes-validate" --version) schemas), ConfigMap current, GitHub workflows and action valid, scripts parse"

# The Homebrew formula: Ruby's own parser, then the DSL stand-in (and its test block when there
# is a binary to run it against).
if ! command -v ruby >/dev/null; then
  echo "installing ruby" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ruby >/dev/null
fi
ruby -c deploy/homebrew/bgsim.rb >/dev/null
version="$(sed -n 's/.*SweepBuild.current(version: "\([^"]*\)").*/\1/p' Sources/bgsim/Usage.swift)"
ruby scripts/testdata/homebrew-harness.rb deploy/homebrew/bgsim.rb "$version" ${binary:+"$binary"}
if [[ -n "$binary" ]]; then
  "$venv/bin/python" scripts/testdata/action-harness.py "$binary"
  bash scripts/testdata/explore-recipes-harness.sh "$binary"
else
  echo "check-deploy: no bgsim binary given, so action.yml's steps and the formula's test were not run" >&2
fi

# run.sh against a fake kubectl: a sweep that completes is merged; one that fails stops the
# wait at once (no merge Job), with the failed indexes named; the placeholder digest is refused.
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT
cp -r deploy/kubernetes "$fake/k8s"
if KUBECTL=scripts/testdata/fake-kubectl.sh bash "$fake/k8s/run.sh" 2>"$fake/err"; then
  echo "check-deploy: run.sh accepted the placeholder image digest" >&2; exit 1
fi
grep -q "put your image's digest" "$fake/err"
sed -i 's/@sha256:0000000000000000000000000000000000000000000000000000000000000000/@sha256:1111111111111111111111111111111111111111111111111111111111111111/' "$fake/k8s"/*.yaml
export FAKE_KUBECTL_LOG="$fake/log"
FAKE_SWEEP_OUTCOME=Complete KUBECTL="$(pwd)/scripts/testdata/fake-kubectl.sh" bash "$fake/k8s/run.sh" 2>"$fake/err" || {
  echo "check-deploy: run.sh failed on a sweep that completed:" >&2; cat "$fake/err" >&2; exit 1; }
grep -q "SWEEP_ID=uid-1234" "$fake/log" && grep -q "merged: /results/uid-1234/merged" "$fake/err" || {
  echo "check-deploy: run.sh did not merge the completed sweep" >&2; cat "$fake/err" "$fake/log" >&2; exit 1; }
rm -f "$fake/log" "$fake/fake-kubectl-waits"
if FAKE_SWEEP_OUTCOME=Failed KUBECTL="$(pwd)/scripts/testdata/fake-kubectl.sh" bash "$fake/k8s/run.sh" 2>"$fake/err"; then
  echo "check-deploy: run.sh succeeded although the sweep Job failed" >&2; exit 1
fi
grep -q "failed; failed indexes: 2,7" "$fake/err" && ! grep -q "set env" "$fake/log" || {
  echo "check-deploy: run.sh did not stop at the failed sweep Job" >&2; cat "$fake/err" "$fake/log" >&2; exit 1; }
echo "check-deploy: run.sh merges a completed sweep and stops at a failed one (fake kubectl)"
