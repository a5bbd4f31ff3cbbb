import Foundation

/// One input: its display name and bytes.
struct InputFile {
    var name: String
    var bytes: [UInt8]

    /// Reads the named files, or standard input for `-` or when none are named.
    static func read(_ paths: [String], terminal: Terminal) throws(InputError) -> [InputFile] {
        if paths.isEmpty { return [InputFile(name: "<stdin>", bytes: terminal.readStandardInput())] }
        var files: [InputFile] = []
        for path in paths {
            if path == "-" {
                files.append(InputFile(name: "<stdin>", bytes: terminal.readStandardInput()))
                continue
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file"
                throw InputError(message: "\(path): error: cannot read input: \(reason)")
            }
            files.append(InputFile(name: path, bytes: [UInt8](data)))
        }
        return files
    }

    /// What the content looks like, whatever the file is called.
    enum Format: String {
        case iCalendar = "ics"
        case graph
    }

    /// Detects iCalendar (`BEGIN:`) versus Graph JSON (`{` or `[`) from the first meaningful bytes.
    var detectedFormat: Format? {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") { return .graph }
        let head = String(decoding: bytes[index..<min(bytes.count, index + 6)], as: UTF8.self).uppercased()
        return head == "BEGIN:" ? .iCalendar : nil
    }
}

/// An input that could not be read.
struct InputError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
