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

    /// <summary>A page taken from the free list (or the end of the file), zeroed and already writable.</summary>
    uint AllocatePage();

    /// <summary>Returns the page to the free list when the transaction commits.</summary>
    void FreePage(uint pageId);
}
