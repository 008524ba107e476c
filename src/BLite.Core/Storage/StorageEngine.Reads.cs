using System.Runtime.InteropServices;
using BLite.Core.Storage.Paging;
using BLite.Core.Transactions;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    /// <summary>
    /// Runs <paramref name="operation"/> on a snapshot of the last acknowledged commit, exactly as
    /// <see cref="BeginRead"/> followed by Dispose would, without allocating: the reader is a
    /// recycled object. It is valid only on the calling thread and only until
    /// <paramref name="operation"/> returns; after that it throws <see cref="ObjectDisposedException"/>.
    /// Use <see cref="BeginRead"/> for a reader that must outlive the call (a streaming cursor).
    /// </summary>
    public TResult Read<TState, TResult>(TState state, Func<IPageReader, TState, TResult> operation)
    {
        ArgumentNullException.ThrowIfNull(operation);
        var snapshot = EnterRead(out var pageCount);
        var read = ReadTransaction.Rent(this, snapshot, pageCount);
        try
        {
            return operation(read, state);
        }
        finally
        {
            read.Recycle();
        }
    }

    /// <summary>Registers a reader of the published snapshot, so no page version it sees is pruned until <see cref="EndRead"/>.</summary>
    private long EnterRead(out uint pageCount)
    {
        long snapshot;
        lock (_sync)
        {
            ThrowIfDisposed();
            snapshot = _publishedSeq;
            CollectionsMarshal.GetValueRefOrAddDefault(_readers, snapshot, out _)++;

            // The header is nearly always cached: taking it here, as GetImage's cache hit would,
            // saves every read a second lock round trip.
            if (_pages.Find(PageIds.Header, snapshot) is { Image: { } header } version)
            {
                _pages.Touch(version);
                pageCount = DatabaseHeader.ReadPageCount(header);
                return snapshot;
            }
        }

        try
        {
            pageCount = DatabaseHeader.ReadPageCount(GetImage(PageIds.Header, snapshot));
            return snapshot;
        }
        catch
        {
            EndRead(snapshot);
            throw;
        }
    }
}
