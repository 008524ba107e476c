using BLite.Core.Storage;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Transactions;

/// <summary>
/// A consistent snapshot of the database as of <see cref="StorageEngine.BeginRead"/>. Any number
/// may be open at once, on any threads; none blocks the writer. Dispose it to let the engine
/// forget the page versions only it still needs.
/// </summary>
public sealed class ReadTransaction : IPageReader, IDisposable
{
    private readonly StorageEngine _engine;
    private int _disposed;

    internal ReadTransaction(StorageEngine engine, long snapshot, uint pageCount)
    {
        _engine = engine;
        Snapshot = snapshot;
        PageCount = pageCount;
    }

    public int PagePayloadSize => _engine.PagePayloadSize;

    /// <summary>Pages 0..PageCount-1 exist in this snapshot.</summary>
    public uint PageCount { get; }

    internal long Snapshot { get; }

    public ReadOnlyMemory<byte> ReadPage(uint pageId)
    {
        ObjectDisposedException.ThrowIf(_disposed != 0, this);
        PageGuards.ThrowIfNotUserPage(pageId, PageCount);
        return new ReadOnlyMemory<byte>(_engine.GetImage(pageId, Snapshot), 0, PageLayout.PayloadSize(_engine.PageSize));
    }

    /// <summary>Reads any page, the header and free-list trunks included (for the consistency checker).</summary>
    internal ReadOnlyMemory<byte> ReadAnyPage(uint pageId) =>
        new(_engine.GetImage(pageId, Snapshot), 0, PageLayout.PayloadSize(_engine.PageSize));

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            _engine.EndRead(Snapshot);
        }
    }
}
