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
        var read = ReadTransaction.Rent(this);
        try
        {
            return operation(read, state);
        }
        finally
        {
            read.Recycle();
        }
    }
}
