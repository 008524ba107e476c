using BLite.Core.Storage;
using BLite.Core.Transactions;
using BLite.Core;

namespace BLite;

// Which transaction an operation joins is carried by an AsyncLocal, like EF Core's ambient
// transactions: it flows into awaits, continuations on other threads and tasks started from the
// flow (Task.Run, Task.WhenAll), and not into unrelated flows. The AsyncLocal holds a mutable
// slot rather than the transaction so BeginTransactionAsync can publish the slot synchronously in
// the caller's flow (an AsyncLocal set inside an async method does not flow back out) and fill it
// once the writer slot is acquired; ending the transaction empties the slot for every flow that
// shares it.
public abstract partial class DocumentDbContext
{
    private readonly AsyncLocal<TransactionSlot?> _currentTransaction = new();

    // Transactions of this context made and not yet ended, in any flow. While there are none no
    // flow can have one, and an operation skips the AsyncLocal lookup (a visible share of a
    // read by id once any AsyncLocal has been set on the thread).
    private int _activeTransactions;

    /// <summary>The open transaction of the calling flow, if any.</summary>
    public DocumentTransaction? CurrentTransaction =>
        Volatile.Read(ref _activeTransactions) != 0
        && _currentTransaction.Value?.Transaction is { IsActive: true } transaction ? transaction : null;

    /// <summary>Transactions made and not yet ended (for tests: it must return to 0 however they end).</summary>
    internal int ActiveTransactionCount => Volatile.Read(ref _activeTransactions);

    /// <summary>Called once by each transaction when it is made, before it is published to a flow.</summary>
    internal void TransactionStarted() => Interlocked.Increment(ref _activeTransactions);

    /// <summary>Called once by each transaction when it stops being active.</summary>
    internal void TransactionEnded() => Interlocked.Decrement(ref _activeTransactions);

    /// <summary>
    /// Starts a write transaction (waiting for the single writer slot) that every operation of this
    /// context in the calling async flow joins until it commits or rolls back. Nested transactions
    /// are not supported.
    /// </summary>
    public DocumentTransaction BeginTransaction()
    {
        ThrowIfTransactionOpen();
        var transaction = _store is { } store ? new DocumentTransaction(this, store.BeginTransaction()) : new DocumentTransaction(this, Engine.BeginWrite());
        _currentTransaction.Value = new TransactionSlot { Transaction = transaction };
        return transaction;
    }

    /// <inheritdoc cref="BeginTransaction"/>
    public Task<DocumentTransaction> BeginTransactionAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfTransactionOpen();
        var slot = new TransactionSlot();
        if (_store is { } store)
        {
            _currentTransaction.Value = slot;
            return StartStoreAsync(store, slot, cancellationToken);
        }

        var database = Engine;
        _currentTransaction.Value = slot;
        return StartAsync(database, slot, cancellationToken);
    }

    internal void ClearTransaction(DocumentTransaction transaction)
    {
        if (_currentTransaction.Value is { } slot && ReferenceEquals(slot.Transaction, transaction))
        {
            slot.Transaction = null;
        }
    }

    /// <summary>Runs a write in the flow's transaction, or in one of its own that commits before returning.</summary>
    internal TResult Write<TState, TResult>(TState state, Func<IPageWriter, TState, TResult> operation)
    {
        if (CurrentTransaction is { } transaction)
        {
            return transaction.Run(state, operation);
        }

        // The transaction never leaves this method, so the engine may reuse it for the next write.
        var write = Engine.BeginLentWrite();
        try
        {
            var result = operation(write, state);
            write.Commit();
            return result;
        }
        finally
        {
            write.EndLent();
        }
    }

    internal async Task<TResult> WriteAsync<TState, TResult>(TState state, Func<IPageWriter, TState, TResult> operation, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (CurrentTransaction is { } transaction)
        {
            return await transaction.RunAsync(state, operation, cancellationToken).ConfigureAwait(false);
        }

        var write = await Engine.BeginLentWriteAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            var result = operation(write, state);
            await write.CommitAsync(cancellationToken).ConfigureAwait(false);
            return result;
        }
        finally
        {
            write.EndLent();
        }
    }

    /// <summary>
    /// Runs a read in the flow's transaction (seeing its writes), or on a snapshot of the last
    /// commit. <paramref name="operation"/> must not keep the reader: outside a transaction it is
    /// a recycled one (see <see cref="StorageEngine.Read{TState, TResult}"/>), valid for the call only.
    /// </summary>
    internal TResult Read<TState, TResult>(TState state, Func<IPageReader, TState, TResult> operation)
    {
        if (CurrentTransaction is { } transaction)
        {
            return transaction.Run(state, operation);
        }

        return Engine.Read(state, operation);
    }

    internal Task<TResult> ReadAsync<TState, TResult>(TState state, Func<IPageReader, TState, TResult> operation, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (CurrentTransaction is { } transaction)
        {
            return transaction.RunAsync(state, operation, cancellationToken);
        }

        // Reads run on the page cache and never wait for the writer, so there is nothing to await.
        return Task.FromResult(Engine.Read(state, operation));
    }

    private void ThrowIfTransactionOpen()
    {
        if (CurrentTransaction is not null)
        {
            throw new InvalidOperationException("A transaction is already open in this flow; commit or dispose it first (nested transactions are not supported).");
        }
    }

    private async Task<DocumentTransaction> StartAsync(Core.DocumentDatabase database, TransactionSlot slot, CancellationToken cancellationToken)
    {
        WriteTransaction write = await database.BeginWriteAsync(cancellationToken).ConfigureAwait(false);
        var transaction = new DocumentTransaction(this, write);
        slot.Transaction = transaction;
        return transaction;
    }

    private async Task<DocumentTransaction> StartStoreAsync(Providers.IDocumentStore store, TransactionSlot slot, CancellationToken cancellationToken)
    {
        var transaction = new DocumentTransaction(this, await store.BeginTransactionAsync(cancellationToken).ConfigureAwait(false));
        slot.Transaction = transaction;
        return transaction;
    }

    private sealed class TransactionSlot
    {
        public volatile DocumentTransaction? Transaction;
    }
}
