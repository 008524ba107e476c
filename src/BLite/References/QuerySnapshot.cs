using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite;

/// <summary>
/// The one view a query with Include reads from, for its own documents and for the documents they
/// reference: outside a transaction a read snapshot opened when enumeration starts and held until
/// it ends (so a commit in between is seen by neither); inside one, the transaction's view.
/// </summary>
internal sealed class QuerySnapshot : IDisposable
{
    private QuerySnapshot(DocumentDbContext context, ReadTransaction? read)
    {
        Context = context;
        Pages = read;
    }

    public DocumentDbContext Context { get; }

    /// <summary>The held snapshot; null inside a transaction, whose reads go through the context.</summary>
    public ReadTransaction? Pages { get; }

    public static QuerySnapshot Open(DocumentDbContext context) =>
        new(context, context.CurrentTransaction is null ? context.Engine.BeginRead() : null);

    public TResult Read<TState, TResult>(TState state, Func<IPageReader, TState, TResult> operation) =>
        Pages is { } pages ? operation(pages, state) : Context.Read(state, operation);

    public void Dispose() => Pages?.Dispose();
}
