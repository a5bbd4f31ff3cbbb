import Foundation
import TestSupport
import Testing

@testable import calport

/// Every `calport …` example in README.md and in calport(1) runs and does what it shows. Pipelines
/// are run up to their first stage (the calport part); `export`, `import` and `login` talk to
/// Graph and are exercised against the emulator by the GraphService tests instead.
private let networkCommands: Set<String> = ["export", "import", "login", "logout"]

/// Splits a shell line into words, honouring single and double quotes.
private func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var inWord = false
    for character in line {
        if let open = quote {
            if character == open { quote = nil } else { current.append(character) }
        } else if character == "'" || character == "\"" {
            quote = character
            inWord = true
        } else if character == " " {
            if inWord { words.append(current) }
            current = ""
            inWord = false
        } else {
            current.append(character)
            inWord = true
        }
    }
    if inWord { words.append(current) }
    return words
}

/// A documented command, and the file a `cat FILE |` before it feeds it.
private struct Example {
    var command: String
    var standardInput: String?
}

/// The calport commands shown in a document: lines (or pipeline stages) that start with `calport`
/// followed by one of its commands.
private func examples(in text: String) -> [Example] {
    text.components(separatedBy: "\n").compactMap { line in
        var command = line.replacingOccurrences(of: "\\-", with: "-")
        var standardInput: String?
        if command.hasPrefix("cat ") {
            standardInput = words(command).dropFirst().first
            command = command.components(separatedBy: "| ").dropFirst().first ?? ""
        }
        for separator in [" |", " #", " >", " &&"] { command = command.components(separatedBy: separator)[0] }
        let parts = words(command)
        guard parts.first == "calport", parts.count > 1, CalportCLI.commands.contains(where: { $0.name == parts[1] })
        else { return nil }
        return Example(command: command.trimmingCharacters(in: .whitespaces), standardInput: standardInput)
    }
}

private func documentedExamples() throws -> [Example] {
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let manual = try String(contentsOf: packageRoot.appendingPathComponent("man/calport.1"), encoding: .utf8)
    return examples(in: readme) + examples(in: manual)
}

@Test func everyDocumentedExampleRuns() throws {
    let all = try documentedExamples()
    #expect(all.count >= 12)
    let scratch = try temporaryDirectory()
    for example in all {
        var arguments = Array(words(example.command).dropFirst())
        guard let command = arguments.first, !networkCommands.contains(command) else { continue }
        // Samples are read from the checkout; files the example writes go to a scratch directory.
        for index in arguments.indices {
            if arguments[index].hasPrefix("Samples") {
                arguments[index] = packageRoot.appendingPathComponent(arguments[index]).path
            } else if index > 0, ["-o", "--output", "--out-dir"].contains(arguments[index - 1]) {
                arguments[index] = scratch.appendingPathComponent(arguments[index]).path
            } else if arguments[index] == "exports/" {
                arguments[index] = packageRoot.appendingPathComponent("Samples").path
            }
        }
        let stdin = try example.standardInput.map {
            try String(contentsOf: packageRoot.appendingPathComponent($0), encoding: .utf8)
        }
        let run = runCalport(arguments, stdin: stdin ?? "")
        #expect(run.status == .success, "\(example.command): \(run.errors)")
        let wroteFile = arguments.contains("-o") || arguments.contains("--out-dir")
        #expect(wroteFile || !run.output.isEmpty, "\(example.command) printed nothing")
    }
}
