#!/usr/bin/env python3
"""Checks docs/scenario.schema.json with the reference implementation of JSON Schema
(PyPI `jsonschema`): the schema itself is valid draft 2020-12, every shipped scenario
validates, and a few broken scenarios do not. The Swift tests check the same with their own
small validator; this is the second opinion.

    python3 scripts/check-schema.py            (pip install jsonschema first)
"""
import glob
import json
import sys

import jsonschema

schema = json.load(open("docs/scenario.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = 0
files = sorted(glob.glob("Scenarios/*.json"))
for path in files:
    for error in validator.iter_errors(json.load(open(path))):
        failures += 1
        print(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}", file=sys.stderr)
broken = [
    {"description": "no name"},
    {"name": "x", "duraton": "1h"},
    {"name": "x", "device": {"network": [{"at": "0s", "interface": "wifii"}]}},
    {"name": "x", "timeline": [{"at": "1m", "do": "forcequit"}]},
    {"name": "x", "expect": [{"lint": "noSuchRule"}]},
    {"name": "x", "policy": {"rateLimiter": {"growht": 2}}},
]
for scenario in broken:
    if validator.is_valid(scenario):
        failures += 1
        print(f"the schema accepts a broken scenario: {json.dumps(scenario)}", file=sys.stderr)
if failures:
    sys.exit(1)
print(f"schema: ok ({len(files)} shipped scenarios valid, {len(broken)} broken ones refused)")
