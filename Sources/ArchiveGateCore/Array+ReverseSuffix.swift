extension Array {
    /// Reverses the elements from `start` to the end, in place. The walks push a node's children in
    /// document order and reverse them, so they pop from their stacks in document order. Swapped
    /// by index: reversing the slice `self[start...]` copied it on every call.
    mutating func reverseSuffix(from start: Int) {
        var low = start
        var high = count - 1
        while low < high {
            swapAt(low, high)
            low += 1
            high -= 1
        }
    }
}
