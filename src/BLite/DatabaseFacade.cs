using System.Collections.Concurrent;
using BLite.Core;
using BLite.Core.Storage;

namespace BLite;

/// <summary>
/// The database underneath a <see cref="DocumentDbContext"/>, reached through
/// <see cref="DocumentDbContext.Database"/> as EF Core's <c>context.Database</c> is: its files,
/// checkpoint, consistency check, statistics, backup, health and the schemaless collections.
/// Operations that write take part in the context's current transaction, like the collections'.
/// </summary>
public sealed class DatabaseFacade
{
    private readonly DocumentDbContext _context;
    private readonly ConcurrentDictionary<string, BsonDocumentCollection> _schemaless = new(StringComparer.Ordinal);

    internal DatabaseFacade(DocumentDbContext context, string? path)
    {
        _context = context;
        Path = path;
    }

    /// <summary>The database file's full path; null for an in-memory database.</summary>
    public string? Path { get; }

    /// <summary>The write-ahead log's full path (beside the database file); null for an in-memory database.</summary>
    public string? WalPath => Path is null ? null : StorageEngine.WalPathFor(Path);

    /// <summary>True when the database lives in memory only (<see cref="Durability.InMemory"/>).</summary>
    public bool IsInMemory => Path is null;

    /// <summary>Page size of this database in bytes, fixed when the file was created.</summary>
    public int PageSize => Engine.Storage.PageSize;

    /// <summary>
    /// False when the database was opened read-only, or once it refuses writes after an I/O
    /// failure or detected corruption (reads still work; reopening recovers from the write-ahead
    /// log). See <see cref="WriteRefusalReason"/>.
    /// </summary>
    public bool AcceptsWrites => WriteRefusalReason is null;

    /// <summary>Why the database refuses writes, or null while it accepts them.</summary>
    public string? WriteRefusalReason
    {
        get
        {
            var storage = Engine.Storage;
            return storage.WriteFailure?.Message ?? (storage.Options.ReadOnly ? "the database was opened read-only" : null);
        }
    }

    /// <summary>
    /// A schemaless collection of <see cref="BsonDocument"/>s with the same operations as the typed
    /// collections and MongoDB-style JSON filters. It takes part in the context's transactions. The
    /// collection need not exist: its first insert creates it.
    /// </summary>
    public BsonDocumentCollection GetCollection(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        var engine = Engine;
        return _schemaless.GetOrAdd(name, static (n, state) => new BsonDocumentCollection(state.Context, state.Engine.GetCollection(n)), (Context: _context, Engine: engine));
    }

    /// <summary>The names of the collections that exist, typed and schemaless alike, in ordinal order.</summary>
    public IReadOnlyList<string> GetCollectionNames() =>
        _context.Read(Engine, static (pages, engine) => engine.GetCollectionNames(pages));

    /// <summary>
    /// Drops a collection with its documents and indexes; false if it did not exist. A typed
    /// collection of the context is empty afterwards (its declared indexes come back on the next open).
    /// </summary>
    public bool DropCollection(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return _context.Write((Engine, name), static (pages, s) => s.Engine.DropCollection(pages, s.name));
    }

    /// <summary>Copies committed pages from the write-ahead log into the database file (also done automatically).</summary>
    public void Checkpoint() => Engine.Checkpoint();

    /// <summary>
    /// Checks the whole database as of a fresh snapshot: checksums, header, free list, every tree,
    /// page ownership and each collection's documents, counters and index entries.
    /// </summary>
    public VerificationReport Verify() => Engine.Verify();

    /// <summary>The engine's memory, write-ahead log and activity figures, now.</summary>
    public StorageStatistics GetStatistics() => Engine.Storage.GetStatistics();

    /// <summary>
    /// Writes a consistent copy of the database, as of now, to a new file at
    /// <paramref name="destinationPath"/> (compact: no free pages), flushed to disk before this
    /// returns. Readers and the writer go on meanwhile; commits after the call are not in the copy.
    /// Refuses an existing destination, and removes a partial copy if anything fails.
    /// </summary>
    /// <returns>The number of documents copied.</returns>
    public long Backup(string destinationPath)
    {
        ArgumentException.ThrowIfNullOrEmpty(destinationPath);
        var engine = Engine;
        var target = System.IO.Path.GetFullPath(destinationPath);
        var targetWal = StorageEngine.WalPathFor(target);
        if (File.Exists(target) || File.Exists(targetWal))
        {
            throw new BLiteException($"Backup destination '{target}' already exists; BLite never overwrites a database with a backup. Choose a new path or delete the old file first.");
        }

        try
        {
            using var snapshot = engine.BeginRead();
            Dictionary<string, long> copied;
            using (var copy = DocumentDatabase.Open(target, new StorageOptions { Durability = Durability.Full, PageSize = engine.Storage.PageSize }))
            {
                copied = engine.CopyTo(snapshot, copy);
            }

            return copied.Values.Sum();
        }
        catch
        {
            File.Delete(target);
            File.Delete(targetWal);
            throw;
        }
    }

    /// <summary>
    /// Rotates the key of this encrypted database while it stays open (docs/encryption.md): every
    /// page is re-encrypted under <paramref name="newEncryption"/> into a new file beside it, read
    /// back and compared, and only then renamed over the database in one step; until then nothing
    /// changes, and from then on only the new key opens it. Readers go on; writers wait. Throws
    /// <see cref="BLiteEncryptionException"/> for a plain database: encrypting or decrypting one
    /// rewrites every page with another layout, which <c>blite rekey</c> does while it is closed.
    /// Not inside a transaction of this context.
    /// </summary>
    public void Rekey(BLiteEncryption newEncryption)
    {
        ArgumentNullException.ThrowIfNull(newEncryption);
        if (_context.CurrentTransaction is not null)
        {
            throw new InvalidOperationException("Rekey cannot run inside a transaction of this context; commit or dispose the transaction first.");
        }

        Engine.Storage.Rekey(newEncryption);
    }

    /// <inheritdoc cref="Backup(string)"/>
    public Task<long> BackupAsync(string destinationPath, CancellationToken cancellationToken = default) =>
        Task.Run(() => Backup(destinationPath), cancellationToken);

    internal DocumentDatabase Engine => _context.Engine;
}
