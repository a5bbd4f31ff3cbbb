extension ClosedRange {
    /// The smallest range that holds this one and `other`: how a span of years grows as events are
    /// read. Inlinable, as its callers in other modules widen a range an event: called across the
    /// module, unspecialised, it was 1,200 instructions a time.
    @inlinable
    package func widened(to other: ClosedRange) -> ClosedRange {
        Swift.min(lowerBound, other.lowerBound)...Swift.max(upperBound, other.upperBound)
    }
}

extension Optional {
    /// The range widened to hold `other` too; `other` when there is none yet.
    @inlinable
    package func widened<Bound>(to other: ClosedRange<Bound>) -> ClosedRange<Bound>
    where Wrapped == ClosedRange<Bound> {
        map { $0.widened(to: other) } ?? other
    }
}
