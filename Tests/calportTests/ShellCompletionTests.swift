import Foundation
import TestSupport
import Testing

@testable import calport

// `calport completion SHELL` loaded into the real bash, zsh and fish (Debian packages, installed by
// .ci/run), whose completion is driven as a user's TAB would: bash by calling the function with
// COMP_WORDS set, zsh through a pseudo-terminal (zpty) recording what reaches compadd, fish by
// `complete -C`. Each case is a command line and what a user expects offered, written by hand.

/// A command line up to the cursor, as words (the last one being completed), and what is offered.
private struct Case: Sendable {
    var words: [String]
    var offered: Set<String>
}

private let cases: [Case] = [
    Case(
        words: ["calport", ""],
        offered: [
            "convert", "expand", "validate", "tz", "export", "import", "calendars", "login", "logout", "completion",
            "help",
        ]),
    Case(words: ["calport", "convert", "--to", ""], offered: ["ics", "graph", "graph-post", "ndjson"]),
    Case(words: ["calport", "validate", "--f"], offered: ["--from"]),
    Case(words: ["calport", "completion", ""], offered: ["bash", "zsh", "fish"]),
    Case(words: ["calport", "tz", ""], offered: ["windows-to-iana", "iana-to-windows", "vtimezone"]),
    // tzdata and CLDR: the zones whose names start so.
    Case(words: ["calport", "tz", "vtimezone", "Europe/Be"], offered: ["Europe/Belgrade", "Europe/Berlin"]),
    // CLDR's Windows ids beginning "Pacific S".
    Case(
        words: ["calport", "expand", "--tz", "Pacific S"],
        offered: ["Pacific SA Standard Time", "Pacific Standard Time", "Pacific Standard Time (Mexico)"]),
    // Calendar names, from `calport calendars --names` run at TAB (here the stand-in below).
    Case(words: ["calport", "export", "--calendar", ""], offered: ["Team Calendar", "Holidays"]),
    Case(words: ["calport", "import", "--calendar", "Ho"], offered: ["Holidays"]),
]

/// A directory put first on the shells' PATH, holding a stand-in `calport` that answers
/// `calendars --names` as a signed-in calport would (TenantCommandTests runs the real one against
/// the Graph emulator) and fails silently otherwise.
private let standIn: URL = {
    guard let directory = try? temporaryDirectory() else { fatalError("no temporary directory for the stand-in") }
    let program = directory.appendingPathComponent("calport")
    try? """
    #!/bin/sh
    [ "$1 $2" = "calendars --names" ] || exit 3
    printf 'Team Calendar\\nHolidays\\n'
    """.write(to: program, atomically: true, encoding: .utf8)
    chmod(program.path, 0o755)
    return directory
}()

private func shell(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs `program` with `arguments`, killed after 60 s; its standard output. The waiting is done on a
/// Dispatch thread: blocking one of the few threads Swift concurrency shares among the tests would
/// hold up others' timers.
private func output(of program: String, _ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = standIn.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return continuation.resume(throwing: error)
            }
            let watchdog = DispatchWorkItem { process.terminate() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            watchdog.cancel()
            continuation.resume(returning: String(decoding: data, as: UTF8.self))
        }
    }
}

/// The shell's program and its completion script, written to a fresh directory (zsh needs it as
/// `_calport`); nil, saying so, when the shell is not installed.
private func prepared(_ name: String) throws -> (program: String, script: URL)? {
    guard let program = shell(name) else {
        print("skipped: \(name) is not installed (apt-get install \(name))")
        return nil
    }
    return (program, try script(for: name))
}

private func script(for shell: String) throws -> URL {
    let run = runCalport(["completion", shell])
    #expect(run.status == .success)
    let file = try temporaryDirectory().appendingPathComponent(shell == "zsh" ? "_calport" : "calport.\(shell)")
    try run.output.write(to: file, atomically: true, encoding: .utf8)
    return file
}

/// Each case's offers, parsed from the driver's output: `=== N` before case N's words, one a line.
private func offers(_ text: String) -> [Set<String>] {
    var found: [Set<String>] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("=== ") {
            found.append([])
        } else if !line.isEmpty, !found.isEmpty {
            // fish gives "word<TAB>description"; bash and zsh quote spaces with backslashes.
            let word = line.split(separator: "\t", maxSplits: 1)[0].replacingOccurrences(of: "\\", with: "")
            found[found.count - 1].insert(word)
        }
    }
    return found
}

private func check(_ found: [Set<String>], shell: String) {
    #expect(found.count == cases.count, "\(shell) answered \(found.count) of \(cases.count) cases")
    for (index, expected) in cases.enumerated() where index < found.count {
        #expect(found[index] == expected.offered, "\(shell): \(expected.words.joined(separator: " "))")
    }
}

@Test func bashCompletesCommandsOptionsValuesAndZones() async throws {
    guard let (program, file) = try prepared("bash") else { return }
    var driver = "source '\(file.path)'\n"
    for (index, test) in cases.enumerated() {
        // As bash splits the line: a space in a word is quoted with a backslash.
        let words = test.words.map { "'" + $0.replacingOccurrences(of: " ", with: "\\ ") + "'" }
        driver += "echo '=== \(index)'; COMP_WORDS=(\(words.joined(separator: " "))); "
        driver += "COMP_CWORD=\(test.words.count - 1); COMPREPLY=(); _calport; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    }
    check(offers(try await output(of: program, ["--norc", "-c", driver])), shell: "bash")
}

@Test func fishCompletesCommandsOptionsValuesAndZones() async throws {
    guard let (program, file) = try prepared("fish") else { return }
    var driver = "source '\(file.path)'\n"
    for (index, test) in cases.enumerated() {
        let line = test.words.map { $0.replacingOccurrences(of: " ", with: "\\\\ ") }.joined(separator: " ")
        driver += "echo '=== \(index)'; complete -C \"\(line)\"\n"
    }
    check(offers(try await output(of: program, ["--no-config", "-c", driver])), shell: "fish")
}

/// zsh completes only inside its line editor: an interactive zsh on a pseudo-terminal (zpty) gets
/// the line and a TAB, and a compadd wrapper prints every candidate it is given.
private let zshDriver = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z "PS1=''; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
    zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a hits; builtin compadd -A hits "$@"; local h; for h in $hits; do print -r -- "<<$h>>"; done; builtin compadd "$@"; }'
    # TAB completes, then says so: the driver types nothing more until it has, since zsh does not
    # complete with typeahead pending, and on a loaded machine a completion that runs a program
    # (the calendar names) was still running when the next keys came (the case came back empty).
    zpty -w z 'complete-then-mark() { zle complete-word; print -r -- "<<TAB-DONE>>"; }; zle -N complete-then-mark; bindkey "^I" complete-then-mark'
    zpty -w z "zstyle ':completion:*' menu no; print -r -- READY"
    zpty -r z line '*READY*'
    zpty -r z line '*READY*'
    # A first completion, not counted: it loads compsys's functions and _calport.
    zpty -w -n z "calport "$'\t'
    zpty -r z out "*<<TAB-DONE>>*"
    zpty -w -n z $'\C-u'
    zpty -w z "print -r -- WARM-DONE"
    zpty -r z out "*WARM-DONE*WARM-DONE*"
    shift
    integer index=0
    for typed in "$@"; do
        zpty -w -n z "$typed"$'\t'
        # The candidates come before the completion says it is done.
        zpty -r z offered "*<<TAB-DONE>>*"
        zpty -w -n z $'\C-u'
        zpty -w z "print -r -- MARK-$index-DONE"
        zpty -r z out "*MARK-$index-DONE*MARK-$index-DONE*"
        print -r -- "=== $index"
        print -r -- "$offered" | grep -o '<<[^>]*>>' | grep -v '^<<TAB-DONE>>$' | sed 's/^<<//; s/>>$//' | sort -u
        index+=1
    done
    zpty -d z
    """#

@Test func zshCompletesCommandsOptionsValuesAndZones() async throws {
    guard let (program, file) = try prepared("zsh") else { return }
    let driver = file.deletingLastPathComponent().appendingPathComponent("drive.zsh")
    try zshDriver.write(to: driver, atomically: true, encoding: .utf8)
    let lines = cases.map { $0.words.map { $0.replacingOccurrences(of: " ", with: "\\ ") }.joined(separator: " ") }
    let found = offers(
        try await output(of: program, ["-f", driver.path, file.deletingLastPathComponent().path] + lines))
    check(found, shell: "zsh")
}
