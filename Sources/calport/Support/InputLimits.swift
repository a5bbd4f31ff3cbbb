import ArgumentParsing
import CalendarConversion
import CalendarModel
import GraphEvents
import ICalendar

/// The limits from `convert`'s options.
extension InputLimits {
    static let maximumLineLength = OptionSpec(
        names: ["--max-line-length"], valueName: "BYTES",
        help: "Drop iCalendar content lines longer than BYTES, unfolded (default 8M)")
    static let maximumDepth = OptionSpec(
        names: ["--max-depth"], valueName: "N",
        help:
            "Refuse BEGIN components or JSON arrays and objects nested deeper than N (default 64 and 256, at most 1000)"
    )
    static let maximumStringLength = OptionSpec(
        names: ["--max-string-length"], valueName: "BYTES", help: "Refuse JSON strings longer than BYTES (default 64M)")
    static let maximumInputSizeOption = OptionSpec(
        names: ["--max-input-size"], valueName: "BYTES",
        help: "Refuse inputs larger than BYTES that must be read whole (default 256M; large .ics to .ics streams)")
    /// The deepest `--max-depth` accepted: a depth the reader's recursion is tested to take on an
    /// 8 MiB main-thread stack, in a debug build (`theDeepestNestingAllowedIsReadWithoutCrashing`).
    static let deepestNesting = 1000
    static let options = [maximumLineLength, maximumDepth, maximumStringLength, maximumInputSizeOption]

    /// A limit given on the command line that is not a positive size.
    struct InvalidLimit: Error {
        var message: String
    }

    init(_ arguments: ParsedArguments) throws(InvalidLimit) {
        self.init()
        if let bytes = try Self.size(arguments, Self.maximumLineLength) { iCalendar.maximumLineLength = bytes }
        if let depth = try Self.size(arguments, Self.maximumDepth) {
            // Reading nested JSON values and components recurses; 50,000 overflowed the stack.
            guard depth <= Self.deepestNesting else {
                throw InvalidLimit(
                    message: "\(Self.maximumDepth.key) is at most \(Self.deepestNesting), found '\(depth)'")
            }
            iCalendar.maximumDepth = depth
            json.maximumDepth = depth
        }
        if let bytes = try Self.size(arguments, Self.maximumStringLength) { json.maximumStringLength = bytes }
        if let bytes = try Self.size(arguments, Self.maximumInputSizeOption) { maximumInputSize = bytes }
    }

    /// A positive integer, optionally with a binary K, M or G suffix (`64K` is 65536).
    private static func size(_ arguments: ParsedArguments, _ option: OptionSpec) throws(InvalidLimit) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        let shifts: [Character: Int] = ["K": 10, "M": 20, "G": 30]
        let shift = text.last.flatMap { shifts[Character($0.uppercased())] }
        let digits = shift == nil ? Substring(text) : text.dropLast()
        guard let number = Int(digits), number > 0, number <= Int.max >> (shift ?? 0) else {
            throw InvalidLimit(
                message: "\(option.key) expects a positive size such as 1048576 or 1M, found '\(text)'")
        }
        return number << (shift ?? 0)
    }
}
