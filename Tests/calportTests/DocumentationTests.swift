import Foundation
import TestSupport
import Testing

@testable import calport

private func manPage() throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent("man/calport.1"), encoding: .utf8)
        .replacingOccurrences(of: "\\-", with: "-")
}

/// The man page documents every command and every option the parser accepts.
@Test func manPageDocumentsEveryCommandAndOption() throws {
    let page = try manPage()
    for command in CalportCLI.commands {
        #expect(page.contains(".B calport \(command.name)"), "calport(1) lacks a synopsis of \(command.name)")
        for option in command.options {
            for name in option.names {
                #expect(page.contains(name), "calport(1) lacks \(name) of \(command.name)")
            }
        }
        for action in command.actions {
            #expect(page.contains(action.name), "calport(1) lacks \(command.name) \(action.name)")
        }
    }
    for status in [ExitStatus.success, .dataProblem, .usage, .ioError] {
        #expect(page.contains(".B \(status.rawValue)\n"), "calport(1) lacks exit status \(status.rawValue)")
    }
}

@Test func manPageHasNoGroffWarnings() throws {
    let groff = ["/usr/bin/groff", "/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let groff else {
        print("skipped: groff is not installed (apt-get install groff-base)")
        return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: groff)
    process.arguments = ["-man", "-ww", "-z", packageRoot.appendingPathComponent("man/calport.1").path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(warnings.isEmpty, "\(warnings)")
}

@Test func completionScriptsOfferEveryOption() throws {
    let bash = runCalport(["completion", "bash"])
    #expect(bash.status == .success)
    let fish = runCalport(["completion", "fish"]).output
    for command in CalportCLI.commands {
        #expect(bash.output.contains("\(command.name))"))
        for option in command.options {
            for name in option.names { #expect(bash.output.contains(name)) }
            #expect(fish.contains("-l \(option.key.dropFirst(2))"))
        }
    }
    let script = try temporaryDirectory().appendingPathComponent("completion.bash")
    try bash.output.write(to: script, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-n", script.path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "bash -n rejects the completion script")
}

@Test func helpListsEveryCommand() {
    let help = runCalport(["--help"])
    for command in CalportCLI.commands { #expect(help.output.contains("  \(command.name)")) }
}

/// README, docs/ and the man page stand alone: a reader's checkout has nothing beside it.
@Test func documentationNeverPointsOutsideTheRepository() throws {
    let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
        .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
    for name in ["README.md", "man/calport.1"] + docs {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(name), encoding: .utf8)
        for outside in ["../shared", "/work/", "](../"] {
            #expect(!text.contains(outside), "\(name) points outside the repository: \(outside)")
        }
    }
}

/// Every option line of every help keeps the spelling and the description apart: two spaces at
/// least, or the description on a line of its own.
@Test func helpKeepsOptionsAndDescriptionsApart() {
    let top = runCalport(["--help"]).output
    for command in CalportCLI.commands {
        #expect(top.contains("\n  \(command.name)  "), "calport --help runs \(command.name) into its abstract")
    }
    for command in CalportCLI.commands {
        let lines = command.helpText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for option in command.options {
            var spelling = option.names.joined(separator: ", ")
            if let value = option.valueName { spelling += " \(value)" }
            guard let index = lines.firstIndex(where: { $0.hasPrefix("  " + spelling) }) else {
                Issue.record("calport \(command.name) --help lacks \(spelling)")
                continue
            }
            let rest = lines[index].dropFirst(2 + spelling.count)
            let apart =
                rest.hasPrefix("  ") || (rest.isEmpty && lines[index + 1].hasPrefix(String(repeating: " ", count: 8)))
            #expect(apart, "calport \(command.name) --help: '\(lines[index])'")
        }
    }
}
