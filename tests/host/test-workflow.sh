#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-workflow.sh - .github/workflows/bare-metal.yml is valid YAML, has a
# matrix over runner labels on self-hosted bare-metal runners, runs
# scripts/ci-bare-metal.sh with options the script documents, and uploads the
# directory the script writes. YAML checks need python3 with PyYAML
# (Debian: python3-yaml); without it they are skipped.
set -eu
. "$(dirname "$0")/lib.sh"

wf=$top/.github/workflows/bare-metal.yml
ci=$top/scripts/ci-bare-metal.sh

if command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
	out=$(python3 - "$wf" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
on = d.get("on", d.get(True))  # YAML 1.1 reads a bare `on` as true
print("triggers", " ".join(sorted(on)))
for name, job in d["jobs"].items():
    m = job.get("strategy", {}).get("matrix", {})
    print("matrix", name, " ".join(m.get("runner", [])))
    print("runs-on", name, " ".join(job["runs-on"]))
    for st in job["steps"]:
        if "actions/upload-artifact" in st.get("uses", ""):
            print("upload", name, st["with"]["path"])
        if "benchmark-action/github-action-benchmark" in st.get("uses", ""):
            w = st["with"]
            print("history", name, w["tool"], w["output-file-path"], w["auto-push"], st.get("if", ""))
    print("permissions", name, " ".join("%s=%s" % kv for kv in sorted(job.get("permissions", {}).items())))
print("env-out", d["jobs"]["gate"]["env"]["OUT"])
PY
) && rc=0 || rc=$?
	expect_eq "bare-metal.yml parses as YAML" 0 "$rc"
	expect_match "runs on push, pull_request and by hand" "^triggers pull_request push workflow_dispatch$" "$out"
	expect_match "a matrix over at least two runner labels" "^matrix gate [^ ]+ [^ ]+" "$out"
	expect_match "runs-on self-hosted bare-metal runners with the matrix label" \
		'^runs-on gate self-hosted .*bare-metal .*\$\{\{ matrix.runner \}\}' "$out"
	expect_match "uploads the --out directory" '^upload gate \$\{\{ env.OUT \}\}/$' "$out"
	expect_match "the --out directory is build/ci, as the script's default" '^env-out build/ci$' "$out"
	# shellcheck disable=SC2016 # literal ${{ }}
	expect_match "the history: github-action-benchmark reads the gate's gbench.json (google/benchmark's format), pushed on main only" \
		'^history gate googlecpp \$\{\{ env.OUT \}\}/gbench.json True .*github.event_name == .push. && github.ref == .refs/heads/main.' "$out"
	expect_match "the gate job may push the history to gh-pages" '^permissions gate contents=write' "$out"
else
	skip "bare-metal.yml YAML structure (no python3 with PyYAML: apt-get install python3-yaml)"
fi

# The gate's command line: the lines from the script's name to the end of
# the continued command.
cmd=$(awk '/^[^#]*scripts\/ci-bare-metal.sh/ { on = 1 } on { print } on && !/\\$/ { exit }' "$wf")
expect_match "a step runs scripts/ci-bare-metal.sh" "ci-bare-metal.sh" "$cmd"
# shellcheck disable=SC2016 # a literal $OUT
expect_match "the gate gets --out \$OUT" '--out "\$OUT"' "$cmd"
help=$(sh "$ci" --help)
for o in $(printf '%s\n' "$cmd" | grep -oE -- '--[a-z-]+' | sort -u) --update-baseline; do
	expect_match "the workflow's $o is an option of ci-bare-metal.sh" "^  $o( |$)" "$help"
done

summary
