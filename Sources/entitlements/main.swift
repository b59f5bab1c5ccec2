// The `entitlements` command. Everything but the process boundary lives in EntitlementsCLI,
// where it is tested.

import EntitlementsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(EntitlementsTool.stream(Array(CommandLine.arguments.dropFirst())))
