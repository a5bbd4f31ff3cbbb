/// Sorts records (bytes with a key) of any total size with bounded memory: records are gathered up to
/// `runBytes`, each full batch is sorted and spilled to a run file, and the runs are merged k-way
/// (at most `fanIn` at a time, merging runs into longer runs first when there are more). Records
/// with equal keys keep the order they were added in. Nothing touches the disk when all records fit.
package struct ExternalSorter {
    /// What records are ordered by, compared in order.
    package struct Key: Comparable {
        package var first: Int64
        package var second: Int64
        package var third: Int64
        /// The order records were added in, so that equal keys stay in that order.
        fileprivate var sequence: UInt64 = 0

        package init(_ first: Int64, _ second: Int64, _ third: Int64) {
            self.first = first
            self.second = second
            self.third = third
        }

        package static func < (a: Key, b: Key) -> Bool {
            (a.first, a.second, a.third, a.sequence) < (b.first, b.second, b.third, b.sequence)
        }
    }

    private let scratch: ScratchSpace
    private let runBytes: Int
    private let fanIn: Int
    private var arena: [UInt8] = []
    private var entries: [(key: Key, start: Int, count: Int)] = []
    private var runs: [SpillWriter] = []
    private var sequence: UInt64 = 0

    package init(scratch: ScratchSpace, runBytes: Int = 8 << 20, fanIn: Int = 64) {
        self.scratch = scratch
        self.runBytes = runBytes
        self.fanIn = max(2, fanIn)
    }

    /// How many sorted runs have been spilled so far.
    package var spilledRuns: Int { runs.count }

    /// Adds a record.
    package mutating func append(_ key: Key, _ record: [UInt8]) throws(AtomicFile.WriteError) {
        var key = key
        key.sequence = sequence
        sequence += 1
        if arena.capacity < runBytes { arena.reserveCapacity(runBytes + (64 << 10)) }
        entries.append((key, arena.count, record.count))
        arena += record
        if arena.count + entries.count * 48 >= runBytes { try spill() }
    }

    /// Every record in key order; `body` returns false to stop early.
    package mutating func drain(_ body: (Key, ArraySlice<UInt8>) -> Bool) throws(AtomicFile.WriteError) {
        if runs.isEmpty {
            entries.sort { $0.key < $1.key }
            for entry in entries where !body(entry.key, arena[entry.start..<entry.start + entry.count]) { break }
            entries = []
            arena = []
            return
        }
        if !entries.isEmpty { try spill() }
        // The gathering buffers are not needed again: give their memory to the merge.
        arena = []
        entries = []
        while runs.count > fanIn {
            var merged: [SpillWriter] = []
            for start in stride(from: 0, to: runs.count, by: fanIn) {
                let group = Array(runs[start..<min(runs.count, start + fanIn)])
                let run = try scratch.create("run")
                try merge(group) { key, record in
                    Self.write(key, record, to: run)
                    return true
                }
                try run.finish()
                merged.append(run)
            }
            runs = merged
        }
        try merge(runs, body)
        runs = []
    }

    /// Sorts what is gathered into a new run file.
    private mutating func spill() throws(AtomicFile.WriteError) {
        entries.sort { $0.key < $1.key }
        let run = try scratch.create("run")
        for entry in entries { Self.write(entry.key, arena[entry.start..<entry.start + entry.count], to: run) }
        try run.finish()
        runs.append(run)
        entries.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    private static func write(_ key: Key, _ record: ArraySlice<UInt8>, to run: SpillWriter) {
        run.write(UInt64(bitPattern: key.first))
        run.write(UInt64(bitPattern: key.second))
        run.write(UInt64(bitPattern: key.third))
        run.write(key.sequence)
        run.write(UInt64(record.count))
        run.write(record)
    }

    private static func read(_ reader: inout SpillReader) -> (Key, [UInt8])? {
        guard let first = reader.readUInt64(), let second = reader.readUInt64(), let third = reader.readUInt64(),
            let sequence = reader.readUInt64(), let count = reader.readUInt64(), let record = reader.read(Int(count))
        else { return nil }
        var key = Key(Int64(bitPattern: first), Int64(bitPattern: second), Int64(bitPattern: third))
        key.sequence = sequence
        return (key, record)
    }

    /// Merges sorted runs with a binary min-heap of each run's next record.
    private func merge(
        _ group: [SpillWriter], _ body: (Key, ArraySlice<UInt8>) -> Bool
    ) throws(AtomicFile.WriteError) {
        var readers = group.map { SpillReader($0.reader(chunkSize: 32 << 10)) }
        var heap: [(key: Key, record: [UInt8], run: Int)] = []
        func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].key < heap[parent].key else { return }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var smallest = left
                if left + 1 < heap.count && heap[left + 1].key < heap[left].key { smallest = left + 1 }
                guard heap[smallest].key < heap[parent].key else { return }
                heap.swapAt(smallest, parent)
                parent = smallest
            }
        }
        for run in readers.indices {
            if let (key, record) = Self.read(&readers[run]) {
                heap.append((key, record, run))
                siftUp(heap.count - 1)
            } else {
                try readers[run].checkRead(group[run])
            }
        }
        while let top = heap.first {
            guard body(top.key, top.record[...]) else { return }
            if let (key, record) = Self.read(&readers[top.run]) {
                heap[0] = (key, record, top.run)
            } else {
                try readers[top.run].checkRead(group[top.run])
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }
}
