import Foundation
import Testing

@testable import GraphService

@Suite struct RetryPolicyTests {
    @Test func retriesOnlyTheStatusesGraphCallsTransient() {
        let policy = RetryPolicy()
        #expect([429, 503, 504].allSatisfy(policy.isRetryable(status:)))
        #expect(![200, 400, 401, 404, 409, 500, 502].contains(where: policy.isRetryable(status:)))
    }

    @Test func honoursRetryAfterSeconds() {
        #expect(RetryPolicy().delay(afterAttempt: 1, retryAfter: "3") == 3)
    }

    @Test func capsRetryAfterAtTheMaximumDelay() {
        #expect(RetryPolicy(maximumDelay: 10).delay(afterAttempt: 1, retryAfter: "120") == 10)
    }

    @Test func readsRetryAfterAsAnHTTPDate() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let seconds = try #require(
            RetryPolicy.seconds(retryAfter: formatter.string(from: Date().addingTimeInterval(20))))
        #expect((18...21).contains(seconds))
    }

    @Test func backsOffExponentiallyWithJitterWithoutRetryAfter() {
        let policy = RetryPolicy(baseDelay: 1, maximumDelay: 30)
        for attempt in 1...6 {
            let ceiling = min(pow(2, Double(attempt - 1)), 30)
            let delay = policy.delay(afterAttempt: attempt, retryAfter: nil)
            #expect(delay >= ceiling / 2 && delay <= ceiling, "attempt \(attempt): \(delay)")
        }
    }
}
