using BLite.Linq;

namespace BLite.Providers;

/// <summary>
/// Where a <see cref="DocumentDbContext"/> keeps its documents when it is not the embedded engine
/// (a server provider such as BLite.PostgreSql). The context, its collections, the generated
/// mappers and the LINQ translation stay the same; only the storage calls go through here.
/// </summary>
internal interface IDocumentStoreProvider
{
    /// <summary>Opens the store for <paramref name="context"/>; each collection then creates its table and declared indexes that are missing (<see cref="IDocumentStore.Collection{TId, T}"/>).</summary>
    /// <param name="readOnly"><see cref="DocumentDbContextOptions.ReadOnly"/>: create nothing (a standby or a read-only role), refuse writes.</param>
    IDocumentStore Open(DocumentDbContext context, bool readOnly);
}

/// <summary>An open store: one per context, disposed with it.</summary>
internal interface IDocumentStore : IDisposable
{
    ICollectionStore<TId, T> Collection<TId, T>(DocumentCollection<TId, T> collection)
        where T : class;

    /// <summary>The schemaless collection <paramref name="name"/>; its table is created on first use.</summary>
    ISchemalessStore Schemaless(string name);

    IStoreTransaction BeginTransaction();

    Task<IStoreTransaction> BeginTransactionAsync(CancellationToken cancellationToken);
}

/// <summary>A store transaction behind a <see cref="DocumentTransaction"/>.</summary>
internal interface IStoreTransaction : IDisposable
{
    void Commit();

    Task CommitAsync(CancellationToken cancellationToken);

    void Rollback();
}

/// <summary>The storage operations of one typed collection, with the same contracts as <see cref="DocumentCollection{TId, T}"/>'s.</summary>
internal interface ICollectionStore<TId, T>
    where T : class
{
    IDocumentQuerySource<T> QuerySource { get; }

    TId Insert(T document);

    int InsertMany(IEnumerable<T> documents);

    bool Update(T document);

    bool Upsert(T document);

    bool Delete(TId id);

    T? FindById(TId id);

    bool Exists(TId id);

    long Count();

    Task<TId> InsertAsync(T document, CancellationToken cancellationToken);

    Task<int> InsertManyAsync(IEnumerable<T> documents, CancellationToken cancellationToken);

    Task<bool> UpdateAsync(T document, CancellationToken cancellationToken);

    Task<bool> UpsertAsync(T document, CancellationToken cancellationToken);

    Task<bool> DeleteAsync(TId id, CancellationToken cancellationToken);

    Task<T?> FindByIdAsync(TId id, CancellationToken cancellationToken);

    Task<bool> ExistsAsync(TId id, CancellationToken cancellationToken);

    Task<long> CountAsync(CancellationToken cancellationToken);
}
