#!/usr/bin/env python3
"""The Spark job of the README: every subscriber of a JSON Lines file answered by
`entitlements evaluate`, one process per partition, the answers written as text files.

    spark_pipe.py INPUT OUTPUT_DIR [--tool PATH] [--catalog FILE] [--at INSTANT]
                  [--partitions N]

As a cluster job must, it ships the tool (`--tool`: the `entitlements` binary, by default the
one on PATH) and the catalog to the workers with `SparkContext.addFile`, and runs the tool from
where each worker received it. Each partition's lines go through one `entitlements evaluate
--jobs 1` (Spark gives each task one core), in order: its answers come out in its input
order, an error line for a line that cannot be read (`line` counts within the partition's
stream, `subscriber` names it when it could be read) and the stream goes on. The tool exits 1
when a line failed: the answers are kept and the task succeeds; it exits 2 when its input or
its catalog cannot be read: the task, and so the job, fails. Every partition answers for the
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
import threading

from pyspark import SparkConf, SparkContext, SparkFiles


def evaluate_partition(tool_name, catalog_name, at):
    """The function each task runs on its partition's lines."""

    def run(lines):
        tool = SparkFiles.get(tool_name)
        os.chmod(tool, 0o755)
        command = [tool, "evaluate", "--jobs", "1", "--at", at]
        if catalog_name:
            command += ["--catalog", SparkFiles.get(catalog_name)]
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        failure = []

        def feed():
            try:
                for line in lines:
                    process.stdin.write(line.encode("utf-8") + b"\n")
            except BaseException as error:  # the partition's lines could not all be given
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
            if process.poll() is None and writer.is_alive():
                process.kill()  # the task was stopped before its answers were all read
        writer.join()
        errors = process.stderr.read().decode("utf-8", "replace")
        status = process.wait()
        # 0: every line answered; 1: some lines are error lines, kept. Anything else (2: the
        # input or the catalog unreadable; a signal: the tool crashed) fails the task. A tool
        # that stopped early also breaks the pipe its lines were written to: its status says why.
        if status not in (0, 1):
            raise RuntimeError(f"entitlements evaluate exited with status {status}: {errors[-2000:]}")
        if failure:
            raise RuntimeError("the partition's lines could not be given to the tool") from failure[0]

    return run


def main(arguments):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output_dir")
    parser.add_argument("--tool", default=shutil.which("entitlements"))
    parser.add_argument("--catalog")
    parser.add_argument("--at")
    parser.add_argument("--partitions", type=int)
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
        lines = context.textFile(options.input, minPartitions=options.partitions)
        answers = lines.mapPartitions(
            evaluate_partition(os.path.basename(options.tool), catalog_name, at))
        answers.saveAsTextFile(options.output_dir)
    finally:
        context.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
