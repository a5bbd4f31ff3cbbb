import FuzzTargets
import Glibc
import LibFuzzer

// SwiftPM renames an executable's entry point, so libFuzzer's own main is not used: run its driver.
var count = CommandLine.argc
var values: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&count, &values) { FuzzTarget.graph.fuzz($0, $1) })
