import Foundation
import Testing

@testable import CalendarConversion

// A large input is read in two halves at once only when the process may run on two processors
// (`SeriesIndex`): on one, the halves take turns and the second's output is copied once more.

/// proc(5): `Cpus_allowed` is a mask in hex, in 32-bit words separated by commas, highest first.
@Test func processorsAllowedAreTheBitsOfTheStatusMask() {
    let status = "Name:\tcalport\nCpus_allowed:\t%@\nCpus_allowed_list:\tignored\n"
    func allowed(_ mask: String) -> Int? {
        Processors.allowed(inStatus: status.replacingOccurrences(of: "%@", with: mask))
    }
    #expect(allowed("1") == 1)  // taskset -c 0
    #expect(allowed("2") == 1)  // taskset -c 1
    #expect(allowed("3") == 2)
    #expect(allowed("f0") == 4)
    #expect(allowed("00000000,00000101") == 2)  // processors 0 and 8
    #expect(allowed("ff,ffffffff") == 40)
    #expect(allowed("0") == nil)
    #expect(Processors.allowed(inStatus: "Name:\tcalport\n") == nil)
}

/// coreutils' `nproc` counts the processors this process may use (`sched_getaffinity`): the count
/// read from the status file is the same. `OMP_*` variables, which `nproc` also obeys, are cleared.
@Test func processorsAvailableAgreeWithNproc() throws {
    let nproc = ["/usr/bin/nproc", "/bin/nproc"].first { FileManager.default.isExecutableFile(atPath: $0) }
    try #require(nproc != nil, "coreutils' nproc is not installed")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nproc!)
    process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OMP_") }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) == Processors.available)
}
