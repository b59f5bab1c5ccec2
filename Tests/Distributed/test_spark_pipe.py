#!/usr/bin/env python3
"""Runs the README's Spark job (spark_pipe.py) for real, in local mode (local[2]), on
generated subscribers in several partitions, and checks what a batch job relies on:

- every subscriber answered once;
- each partition's answers in its input order;
- a line that cannot be read kept as an error line, naming its subscriber when it can, its
  `line` counted within the partition;
- the job failing only when the tool exits 2 (an unreadable catalog), not for a bad line.

    python3 Tests/Distributed/test_spark_pipe.py --tool .build/debug/entitlements

Prints one line per check and exits 1 when one fails. Needs Java 17 and PySpark
(.ci/run installs them, or skips this with one line).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUBSCRIBERS = 2000
BAD = {77, 1234}  # lines that are not JSON
UNNAMED = {1500}  # a line whose subscriber cannot be read


def subscriber_line(number):
    original = 2_000_000_000_000_000 + number * 100
    start = 1_700_000_000_000 + number * 3_600_000
    documents = []
    for month in range(number % 3 + 1):
        begin = start + month * 2_592_000_000
        documents.append(
            '{"transactionId": "%d", "originalTransactionId": "%d", '
            '"productId": "com.example.monthly", "purchaseDate": %d, "expiresDate": %d, '
            '"signedDate": %d, "environment": "Production"}'
            % (original + month, original, begin, begin + 2_592_000_000, begin))
    if number in BAD:
        return '{"subscriber": "s%d", "documents": [' % number
    if number in UNNAMED:
        return "not json at all"
    return '{"subscriber": "s%d", "documents": [%s]}' % (number, ", ".join(documents))


def run_job(tool, input_path, output, catalog=None):
    command = [sys.executable, os.path.join(HERE, "spark_pipe.py"), input_path, output,
               "--tool", tool, "--at", "2024-06-01T00:00:00Z", "--partitions", "4"]
    if catalog:
        command += ["--catalog", catalog]
    return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = os.path.abspath(parser.parse_args().tool)
    failures = []

    def check(condition, what):
        print(("ok    " if condition else "FAIL  ") + what)
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as folder:
        input_path = os.path.join(folder, "subscribers.jsonl")
        with open(input_path, "w") as file:
            file.write("\n".join(subscriber_line(n) for n in range(SUBSCRIBERS)) + "\n")
        catalog = os.path.join(folder, "products.json")
        with open(catalog, "w") as file:
            file.write('[{"id": "com.example.monthly", "type": "autoRenewable", '
                       '"duration": "P1M", "entitlement": "premium"}]')

        output = os.path.join(folder, "answers")
        job = run_job(tool, input_path, output, catalog)
        check(job.returncode == 0, "the job succeeds though lines fail (the tool exits 1)")
        if job.returncode != 0:
            sys.stderr.write(job.stderr.decode()[-3000:])
            return 1
        parts = sorted(glob.glob(os.path.join(output, "part-*")))
        check(len(parts) >= 2, f"the input is read in several partitions ({len(parts)})")
        seen = {}
        errors = []
        in_order = True
        lines_in_partition = True
        for part in parts:
            numbers = []
            with open(part) as file:
                for position, text in enumerate(file, start=1):
                    answer = json.loads(text)
                    if "error" in answer:
                        errors.append(answer)
                        # One answer per input line: an error's line is its place in the part.
                        lines_in_partition = lines_in_partition and answer["line"] == position
                    name = answer.get("subscriber")
                    if name is None:
                        continue
                    number = int(name[1:])
                    seen[number] = seen.get(number, 0) + 1
                    numbers.append(number)
            in_order = in_order and numbers == sorted(numbers)
        named = set(range(SUBSCRIBERS)) - UNNAMED
        check(set(seen) == named and all(count == 1 for count in seen.values()),
              "every subscriber is answered once")
        check(in_order, "each partition's answers are in its input order")
        check(sorted(e.get("subscriber") or "" for e in errors)
              == sorted([""] + ["s%d" % n for n in BAD]),
              "a line that cannot be read is an error line, naming its subscriber when it can")
        # s1234 is past the first partition: its line within the partition is not 1235.
        late = [e for e in errors if e.get("subscriber") == "s1234"]
        check(lines_in_partition and late and late[0]["line"] != 1235,
              "an error line's `line` counts within its partition")
        answered = [json.loads(t) for p in parts for t in open(p) if '"entitlements"' in t]
        check(all(a["entitlements"][0]["entitlement"] == "premium" for a in answered),
              "the catalog shipped to the workers is used")

        broken = os.path.join(folder, "broken.json")
        with open(broken, "w") as file:
            file.write("[{")
        failed = run_job(tool, input_path, os.path.join(folder, "never"), broken)
        check(failed.returncode != 0
              and b"entitlements evaluate exited with status 2" in failed.stderr,
              "the job fails when the tool exits 2 (unreadable catalog)")
        if b"exited with status 2" not in failed.stderr:
            sys.stderr.write(failed.stderr.decode()[-1500:])
    print(f"{'FAILED' if failures else 'passed'}: the Spark recipe, local[2]")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
