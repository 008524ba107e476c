namespace BLite.Core.Storage;

/// <summary>Page access inside the single write transaction.</summary>
internal interface IPageWriter : IPageReader
{
    /// <summary>
    /// This transaction's private, writable copy of the page's payload, initialised from its
    /// current content. Later reads of the page in this transaction see the copy. The memory
    /// stays valid until the transaction ends.
    /// </summary>
    Memory<byte> WritePage(uint pageId);

    /// <summary>
    /// <see cref="WritePage(uint)"/> for a page this transaction has just read:
    /// <paramref name="read"/> is what <see cref="IPageReader.ReadPage"/> returned for it, so a
    /// first write can copy that image instead of looking the page up again.
    /// </summary>
    Memory<byte> WritePage(uint pageId, ReadOnlyMemory<byte> read) => WritePage(pageId);

    /// <summary>A page taken from the free list (or the end of the file), zeroed and already writable.</summary>
    uint AllocatePage();

    /// <summary>Returns the page to the free list when the transaction commits.</summary>
    void FreePage(uint pageId);

    /// <summary>Sets an in-memory counter, visible to this transaction at once and to readers when it commits.</summary>
    /// <remarks>Page writers used to test or measure the structures alone keep no counters.</remarks>
    void SetCounter(uint key, long value) =>
        throw new InvalidOperationException($"{GetType().Name} keeps no counters; collections need a write transaction of the storage engine.");
}
