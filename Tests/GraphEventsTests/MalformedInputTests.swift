import Foundation
import Testing

@testable import GraphEvents

/// No input, however malformed, may crash: cut and damaged copies of the sample are read.
@Suite struct MalformedInputTests {
    /// A small deterministic generator (64-bit LCG), so failures reproduce.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test func cutAndDamagedInputNeverCrashes() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/graph-work-week.json")
        let sample = Array(try #require(FileManager.default.contents(atPath: url.path)))
        var random = Generator(state: 2_026)
        let damage: [UInt8] = Array("{}[]\",:\\0-9eE.tfnu \n".utf8) + [0x00, 0xFF, 0xC3]
        for round in 0..<60 {
            var bytes = Array(sample.prefix(random.next(sample.count)))
            for _ in 0..<(round % 4) where !bytes.isEmpty {
                bytes[random.next(bytes.count)] = damage[random.next(damage.count)]
            }
            let result = GraphEventReader().read(bytes)
            // Whatever survives is a usable event, and writing it back does not crash either.
            #expect(result.events.allSatisfy { $0.start != nil })
            _ = GraphEventWriter(style: .post).write(result.events)
        }
    }
}
