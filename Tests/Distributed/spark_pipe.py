#!/usr/bin/env python3
"""The Spark job of the README: every subscriber of a JSON Lines file answered by
`entitlements evaluate`, one process per partition, the answers written as text files.

    spark_pipe.py INPUT OUTPUT_DIR [--tool PATH] [--catalog FILE] [--at INSTANT]
                  [--partitions N] [--policy FILE] [--max-bytes N]

As a cluster job must, it ships the tool (`--tool`: the `entitlements` binary, by default the
one on PATH) and the catalog to the workers with `SparkContext.addFile`, and runs the tool from
where each worker received it. Each partition's lines go through one `entitlements evaluate
--jobs 1` (Spark gives each task one core), in order: its answers come out in its input
order, an error line for a line that cannot be read (`line` counts within the partition's
stream, `subscriber` names it when it could be read) and the stream goes on. The tool exits 1
when a line failed: the answers are kept and the task succeeds; any other status (2: its input,
catalog or policy cannot be read; a signal: it crashed) fails the task, and so the job. Every partition answers for the
same instant: `--at`, or the instant the job started.

Run with `spark-submit spark_pipe.py …` on a cluster, or `python3 spark_pipe.py …` for a local
run (`local[2]` unless `spark.master` is set).
"""
import argparse
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from pyspark import SparkConf, SparkContext, SparkFiles


def evaluate_partition(tool_name, catalog_name, at, extra):
    """The function each task runs on its partition's lines."""

    def run(lines):
        tool = SparkFiles.get(tool_name)
        os.chmod(tool, 0o755)
        command = [tool, "evaluate", "--jobs", "1", "--at", at] + [
            SparkFiles.get(argument[1:]) if argument.startswith("@") else argument
            for argument in extra
        ]
        if catalog_name:
            command += ["--catalog", SparkFiles.get(catalog_name)]
        # Standard error to a file: a tool that writes much there never blocks on it.
        errors = tempfile.TemporaryFile()
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
        failure = []

        def feed():
            try:
                for line in lines:
                    process.stdin.write(line.encode("utf-8") + b"\n")
            except BrokenPipeError:
                pass  # the tool stopped reading: its status says why
            except BaseException as error:  # the partition's lines could not all be read
                failure.append(error)
                process.kill()
            finally:
                try:
                    process.stdin.close()
                except OSError:
                    pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        try:
            for answer in process.stdout:
                yield answer.decode("utf-8").rstrip("\n")
        finally:
            if process.poll() is None:
                process.kill()  # the task stopped before the tool ended: stop it too
                process.wait()
        writer.join()
        status = process.wait()
        if failure:
            raise RuntimeError("the partition's lines could not be read") from failure[0]
        # 0: every line answered; 1: some lines are error lines, kept. Anything else (2: the
        # input or the catalog unreadable; a signal: the tool crashed) fails the task.
        if status not in (0, 1):
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace")[-2000:]
            raise RuntimeError(f"entitlements evaluate exited with status {status}: {message}")

    return run


def main(arguments):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output_dir")
    parser.add_argument("--tool", default=shutil.which("entitlements"))
    parser.add_argument("--catalog")
    parser.add_argument("--at")
    parser.add_argument("--partitions", type=int)
    parser.add_argument("--policy", help="passed to the tool: a policy file, shipped too")
    parser.add_argument("--max-bytes", help="passed to the tool")
    options = parser.parse_args(arguments)
    if not options.tool:
        parser.error("--tool: no entitlements on PATH")
    at = options.at or datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    context = SparkContext.getOrCreate(
        SparkConf().setAppName("entitlements").setIfMissing("spark.master", "local[2]"))
    try:
        context.addFile(os.path.abspath(options.tool))
        catalog_name = None
        if options.catalog:
            context.addFile(os.path.abspath(options.catalog))
            catalog_name = os.path.basename(options.catalog)
        extra = []
        if options.max_bytes:
            extra += ["--max-bytes", options.max_bytes]
        if options.policy:
            context.addFile(os.path.abspath(options.policy))
            # The policy's path on a worker is known there only: resolved in the task.
            extra += ["--policy", "@" + os.path.basename(options.policy)]
        lines = context.textFile(options.input, minPartitions=options.partitions)
        answers = lines.mapPartitions(
            evaluate_partition(os.path.basename(options.tool), catalog_name, at, extra))
        answers.saveAsTextFile(options.output_dir)
    finally:
        context.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
