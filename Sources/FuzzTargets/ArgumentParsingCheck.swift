import ArgumentParsing

/// Command lines through `ArgumentParser`: NUL-separated arguments against a spec with every kind
/// of option. An accepted value of an option with choices is one of them.
enum ArgumentParsingCheck {
    static let format = OptionSpec(names: ["--to"], valueName: "FORMAT", help: "format", choices: ["ics", "graph"])
    static let output = OptionSpec(names: ["-o", "--output"], valueName: "FILE", help: "file")
    static let spec = CommandSpec(
        name: "convert", abstract: "fuzzed",
        options: [format, output, CommonOptions.strict, CommonOptions.quiet, CommonOptions.help],
        positionals: "[FILE…|-]")

    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let parsed = try? ArgumentParser.parse(arguments, spec: spec) else { return }
        if let value = parsed.value(format), !format.choices.contains(value) {
            throw FuzzFinding(target: .arguments, message: "--to accepted '\(value)', not one of its choices")
        }
        _ = spec.helpText
    }
}
