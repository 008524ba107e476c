using BLite.Core.Transactions;

namespace BLite;

/// <summary>
/// An explicit write transaction of a <see cref="DocumentDbContext"/>. While it is open, every
/// operation of the context issued from the same async flow (the code after
/// <see cref="DocumentDbContext.BeginTransaction"/>, and tasks started from it) runs inside it;
/// reads see its own writes. It is not tied to a thread: awaits may resume anywhere. Commit makes
/// every change durable at once; <see cref="Rollback"/>, or disposing without committing, leaves
/// no trace. A failed operation (for example a unique violation) changes nothing and leaves the
/// transaction usable.
/// </summary>
public sealed class DocumentTransaction : IDisposable, IAsyncDisposable
{
    private const int Active = 0;
    private const int Committed = 1;
    private const int RolledBack = 2;
    private const int Failed = 3;

    // Operations of one transaction may come from several tasks of the same flow (Task.WhenAll);
    // the pages underneath are not thread-safe, so operations take turns.
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly WriteTransaction? _write;
    private readonly Providers.IStoreTransaction? _storeTransaction;
    private int _state;

    internal DocumentTransaction(DocumentDbContext context, WriteTransaction write)
    {
        Context = context;
        _write = write;
        context.TransactionStarted();
    }

    internal DocumentTransaction(DocumentDbContext context, Providers.IStoreTransaction storeTransaction)
    {
        Context = context;
        _storeTransaction = storeTransaction;
        context.TransactionStarted();
    }

    public DocumentDbContext Context { get; }

    /// <summary>True until the transaction commits or rolls back.</summary>
    public bool IsActive => Volatile.Read(ref _state) == Active;

    public void Commit()
    {
        _gate.Wait();
        try
        {
            ThrowIfNotActive();
            if (_storeTransaction is { } store)
            {
                store.Commit();
            }
            else
            {
                _write!.Commit();
            }

            End(Committed);
        }
        catch
        {
            MarkFailedCommit();
            throw;
        }
        finally
        {
            _gate.Release();
            Context.ClearTransaction(this);
        }
    }

    public async Task CommitAsync(CancellationToken cancellationToken = default)
    {
        await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            ThrowIfNotActive();
            if (_storeTransaction is { } store)
            {
                await store.CommitAsync(cancellationToken).ConfigureAwait(false);
            }
            else
            {
                await _write!.CommitAsync(cancellationToken).ConfigureAwait(false);
            }

            End(Committed);
        }
        catch
        {
            MarkFailedCommit();
            throw;
        }
        finally
        {
            _gate.Release();
            Context.ClearTransaction(this);
        }
    }

    /// <summary>Discards every change of this transaction. Does nothing once it has ended.</summary>
    public void Rollback()
    {
        _gate.Wait();
        try
        {
            if (_state != Active)
            {
                return;
            }

            End(RolledBack);
            if (_storeTransaction is { } store)
            {
                store.Rollback();
            }
            else
            {
                _write!.Rollback();
            }
        }
        finally
        {
            _gate.Release();
            Context.ClearTransaction(this);
        }
    }

    public void Dispose()
    {
        Rollback();
        _write?.Dispose();
        _storeTransaction?.Dispose();
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    internal TResult Run<TState, TResult>(TState state, Func<WriteTransaction, TState, TResult> operation)
    {
        _gate.Wait();
        try
        {
            ThrowIfNotActive();
            return operation(EngineTransaction, state);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Runs a server store's operation inside this transaction, taking turns with the flow's other operations.</summary>
    internal TResult RunInStore<TState, TResult>(TState state, Func<Providers.IStoreTransaction, TState, TResult> operation)
    {
        _gate.Wait();
        try
        {
            ThrowIfNotActive();
            return operation(_storeTransaction ?? throw new InvalidOperationException("This transaction belongs to the embedded engine."), state);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <inheritdoc cref="RunInStore"/>
    internal async Task<TResult> RunInStoreAsync<TState, TResult>(TState state, Func<Providers.IStoreTransaction, TState, CancellationToken, Task<TResult>> operation, CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            ThrowIfNotActive();
            return await operation(_storeTransaction ?? throw new InvalidOperationException("This transaction belongs to the embedded engine."), state, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _gate.Release();
        }
    }

    private WriteTransaction EngineTransaction => _write ?? throw new NotSupportedException("This transaction belongs to a server store; the embedded engine cannot run in it.");

    internal async Task<TResult> RunAsync<TState, TResult>(TState state, Func<WriteTransaction, TState, TResult> operation, CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            ThrowIfNotActive();
            return operation(EngineTransaction, state);
        }
        finally
        {
            _gate.Release();
        }
    }

    // A commit that failed has ended the transaction (the storage transaction released the writer
    // slot); Rollback and Dispose then do nothing, so the caller of a using block sees the
    // commit's own exception. A commit refused before it started (already ended) changes nothing.
    private void MarkFailedCommit()
    {
        if (_state == Active)
        {
            End(Failed);
        }
    }

    /// <summary>Leaves Active (under the gate, so once) and tells the context, which counts active transactions.</summary>
    private void End(int state)
    {
        _state = state;
        Context.TransactionEnded();
    }

    private void ThrowIfNotActive()
    {
        if (_state != Active)
        {
            throw new InvalidOperationException(_state switch
            {
                Committed => "The transaction has already committed.",
                Failed => "The transaction's commit failed; start a new one.",
                _ => "The transaction has been rolled back.",
            });
        }
    }
}
