#!/usr/bin/env python3
"""Runs the steps of a GitHub Actions workflow here, as far as that can be
done without GitHub (Debian has no `act`): each job's `run:` steps in bash,
in the checkout, and the actions the classroom workflow uses, emulated:

  actions/checkout                         the checkout is the directory given
  actions/upload-artifact                  its `path` must exist in the checkout
  .../autograding-command-grader           runs `command`; `max-score` when it exits 0, else 0
  .../autograding-grading-reporter         every runner it names must have run

A step with `continue-on-error: true` may fail; any other failure stops the
run, as on GitHub. Prints one line a step, then `score ID POINTS MAX` a
grader and `total POINTS MAX`.

  run_workflow.py WORKFLOW CHECKOUT [--replace 'STEP NAME=COMMAND']...

--replace runs COMMAND instead of a `run:` step (a test puts a prepared
grade/ in place of the full build that `./warpdrill grade` would do).
"""
import argparse
import os
import subprocess
import sys

import yaml


def run_shell(command, checkout):
    return subprocess.run(["bash", "-eo", "pipefail", "-c", command], cwd=checkout).returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workflow")
    parser.add_argument("checkout")
    parser.add_argument("--replace", action="append", default=[])
    args = parser.parse_args()
    replacements = dict(item.split("=", 1) for item in args.replace)

    with open(args.workflow) as file:
        workflow = yaml.safe_load(file)
    scores = {}
    total = [0, 0]
    for job_name, job in workflow["jobs"].items():
        for step in job["steps"]:
            name = step.get("name", step.get("uses", "?"))
            uses = step.get("uses", "")
            settings = step.get("with", {})
            if "run" in step:
                status = run_shell(replacements.get(name, step["run"]), args.checkout)
            elif uses.startswith("actions/checkout@"):
                status = 0
            elif uses.startswith("actions/upload-artifact@"):
                status = 0 if os.path.exists(os.path.join(args.checkout, settings["path"])) else 1
            elif "/autograding-command-grader@" in uses:
                passed = run_shell(settings["command"], args.checkout) == 0
                points = settings["max-score"] if passed else 0
                scores[step["id"]] = (points, settings["max-score"])
                total[0] += points
                total[1] += settings["max-score"]
                status = 0
            elif "/autograding-grading-reporter@" in uses:
                runners = settings["runners"].split(",")
                status = 0 if all(runner in scores for runner in runners) else 1
            else:
                print(f"{job_name}: no emulation of the action {uses}")
                return 1
            print(f"step '{name}': {'ok' if status == 0 else 'failed'}")
            if status != 0 and not step.get("continue-on-error", False):
                return 1
    for step_id, (points, most) in scores.items():
        print(f"score {step_id} {points} {most}")
    print(f"total {total[0]} {total[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
