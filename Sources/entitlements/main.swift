// The `entitlements` command: check scenario files, explain a receipt, draw a timeline.
// Everything but the process boundary lives in EntitlementsCLI, where it is tested.

import EntitlementsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let run = EntitlementsTool.run(Array(CommandLine.arguments.dropFirst()))
if !run.output.isEmpty { print(run.output, terminator: "") }
if !run.errors.isEmpty {
  // The stderr global does not compile in Swift 6 mode; write(2, …) does.
  var bytes = Array(run.errors.utf8)
  _ = write(2, &bytes, bytes.count)
}
exit(run.status)
