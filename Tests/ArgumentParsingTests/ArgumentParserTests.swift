import ArgumentParsing
import Testing

private let output = OptionSpec(names: ["-o", "--output"], valueName: "FILE", help: "Write to FILE")
private let format = OptionSpec(names: ["--to"], valueName: "FORMAT", help: "Format", choices: ["ics", "ndjson"])
private let strict = OptionSpec(names: ["--strict"], help: "Stop at the first problem")
private let spec = CommandSpec(
    name: "convert", abstract: "Convert.", options: [output, format, strict], positionals: "[FILE…|-]")

@Test func longShortAndInlineSpellingsAllSetTheOption() throws {
    for arguments in [["-o", "x.ics"], ["--output", "x.ics"], ["--output=x.ics"]] {
        #expect(try ArgumentParser.parse(arguments, spec: spec).value(output) == "x.ics")
    }
}

@Test func flagsPositionalsDashAndDoubleDash() throws {
    let parsed = try ArgumentParser.parse(["a.ics", "--strict", "-", "--", "--not-an-option"], spec: spec)
    #expect(parsed.isSet(strict))
    #expect(parsed.positionals == ["a.ics", "-", "--not-an-option"])
    #expect(parsed.value(output) == nil)
}

@Test func mistakesSayWhatWasExpected() {
    #expect(throws: UsageError.self) { try ArgumentParser.parse(["--frobnicate"], spec: spec) }
    do {
        _ = try ArgumentParser.parse(["--to", "pdf"], spec: spec)
        Issue.record("expected an error")
    } catch {
        #expect(error.message == "option '--to' expects one of ics, ndjson, found 'pdf'")
    }
    do {
        _ = try ArgumentParser.parse(["-o"], spec: spec)
        Issue.record("expected an error")
    } catch {
        #expect(error.message == "option '-o' expects a value (FILE)")
    }
    #expect(throws: UsageError.self) { try ArgumentParser.parse(["--strict=yes"], spec: spec) }
}

@Test func synopsisAndHelpComeFromTheDeclaration() {
    #expect(spec.synopsis == "calport convert [--output FILE] [--to FORMAT] [--strict] [FILE…|-]")
    #expect(spec.helpText.contains("-o, --output FILE"))
    #expect(spec.helpText.contains("Format (ics|ndjson)"))
}
