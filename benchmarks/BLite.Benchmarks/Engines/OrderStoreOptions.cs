namespace BLite.Benchmarks.Engines;

/// <param name="Directory">Where the engine puts its files (ignored for <see cref="StoreDurability.InMemory"/>).</param>
/// <param name="Durability">The matched durability level the store commits at.</param>
/// <param name="IndexStatus">Whether a secondary index on <c>Status</c> exists, for the indexed scan scenarios.</param>
public sealed record OrderStoreOptions(string Directory, StoreDurability Durability, bool IndexStatus);
