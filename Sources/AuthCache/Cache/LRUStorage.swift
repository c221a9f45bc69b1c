// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A least-recently-used map with a cost per entry: a dictionary from key to slot plus a doubly
/// linked list threaded through an array of slots, so lookup, insert, touch and eviction are O(1)
/// and a slot is reused after removal instead of allocating a node.
///
/// Not thread-safe on its own: ``ResponseCache`` keeps it inside a `Mutex`.
struct LRUStorage<Key: Hashable, Value> {
    private struct Slot {
        var key: Key?
        var value: Value?
        var cost: Int
        var newer: Int  // towards the most recently used end; -1 at the end
        var older: Int  // towards the least recently used end; -1 at the end
    }

    private var slots: [Slot] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    /// The sum of the costs of the entries.
    private(set) var totalCost = 0

    /// The number of entries.
    var count: Int { index.count }

    /// The value for `key`, marked as the most recently used.
    mutating func get(_ key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        return slots[slot].value
    }

    /// The value for `key` without changing the order.
    func peek(_ key: Key) -> Value? {
        index[key].flatMap { slots[$0].value }
    }

    /// Inserts or replaces the value for `key` as the most recently used.
    mutating func set(_ key: Key, _ value: Value, cost: Int) {
        if let slot = index[key] {
            totalCost += cost - slots[slot].cost
            slots[slot].value = value
            slots[slot].cost = cost
            moveToNewest(slot)
            return
        }
        let entry = Slot(key: key, value: value, cost: cost, newer: -1, older: newest)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        totalCost += cost
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        return release(slot)
    }

    /// Removes the least recently used entry.
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard oldest >= 0, let key = slots[oldest].key else { return nil }
        index[key] = nil
        guard let value = release(oldest) else { return nil }
        return (key, value)
    }

    /// Removes every entry whose key matches; O(n).
    mutating func removeAll(where matches: (Key) -> Bool) -> Int {
        let doomed = index.keys.filter(matches)
        for key in doomed { remove(key) }
        return doomed.count
    }

    /// The number of keys that match; O(n).
    func count(where matches: (Key) -> Bool) -> Int {
        index.keys.reduce(0) { $0 + (matches($1) ? 1 : 0) }
    }

    /// The keys from the least to the most recently used.
    var keysOldestFirst: [Key] {
        var keys: [Key] = []
        var slot = oldest
        while slot >= 0 {
            if let key = slots[slot].key { keys.append(key) }
            slot = slots[slot].newer
        }
        return keys
    }

    /// Empties the storage and gives its memory back.
    mutating func removeAll() {
        self = LRUStorage()
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        slots[slot].older = newest
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func release(_ slot: Int) -> Value? {
        unlink(slot)
        let value = slots[slot].value
        totalCost -= slots[slot].cost
        slots[slot] = Slot(key: nil, value: nil, cost: 0, newer: -1, older: -1)
        free.append(slot)
        return value
    }
}
