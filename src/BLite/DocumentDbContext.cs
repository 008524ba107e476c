using BLite.Bson;
using BLite.Core;
using BLite.Core.Collections;

namespace BLite;

/// <summary>
/// Base of an application's database context. Declare a <c>partial</c> subclass with
/// <see cref="DocumentCollection{TId, T}"/> properties and a constructor taking a path or
/// <see cref="DocumentDbContextOptions"/>; the BLite source generator implements
/// <see cref="CreateCollections"/>, creating each collection with its compile-time mapper.
/// Opening runs <see cref="OnModelCreating"/>, opens (or creates) the database, then creates the
/// declared collections and every declared index that is missing — existing data is kept, and
/// nothing that is not declared is ever dropped. Disposing checkpoints and closes the file.
/// </summary>
public abstract partial class DocumentDbContext : IDisposable, IAsyncDisposable
{
    private readonly ModelBuilder _model = new();
    private readonly List<TypedCollection> _collections = [];
    private readonly DocumentDatabase? _database;
    private readonly DatabaseFacade? _facade;
    private readonly Providers.IDocumentStore? _store;
    private HashSet<string>? _existingCollections;
    private bool _disposed;

    /// <summary>A context without storage (mapping only) over a new, empty field dictionary.</summary>
    protected DocumentDbContext()
        : this(new BsonFieldDictionary())
    {
    }

    /// <summary>
    /// A context without storage whose mappers resolve field names through
    /// <paramref name="fieldDictionary"/>: collections expose their mappers, but data operations
    /// throw <see cref="InvalidOperationException"/>.
    /// </summary>
    protected DocumentDbContext(BsonFieldDictionary fieldDictionary)
    {
        ArgumentNullException.ThrowIfNull(fieldDictionary);
        FieldDictionary = fieldDictionary;
        // Runs before the subclass constructor body on purpose: the generated override only assigns
        // collection properties, so the subclass sees them created from its first line on.
        OnModelCreating(_model);
        CreateCollections();
    }

    /// <summary>A context over the database file at <paramref name="path"/> (created if missing), with default options.</summary>
    protected DocumentDbContext(string path)
        : this(new DocumentDbContextOptions { Path = path })
    {
    }

    protected DocumentDbContext(DocumentDbContextOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.StoreProvider is { } provider)
        {
            // A server store: mappers resolve field names through a dictionary of this process
            // only, since the stored form carries names, not ids.
            FieldDictionary = new BsonFieldDictionary();
            OnModelCreating(_model);
            CreateCollections();
            _store = provider.Open(this, options.ReadOnly);
            _facade = new DatabaseFacade(this, null);
            try
            {
                foreach (var collection in _collections)
                {
                    collection.Attach(_store);
                }
            }
            catch
            {
                _store.Dispose();
                throw;
            }

            return;
        }

        if (options.OpenStorage is not null)
        {
            // The engine comes from the caller (tests); there is no path to check.
        }
        else if (!options.InMemory)
        {
            ArgumentException.ThrowIfNullOrEmpty(options.Path, "options.Path");
        }
        else if (options.Path is not null)
        {
            throw new ArgumentException($"options.Path ('{options.Path}') and Durability.InMemory contradict each other: an in-memory database has no file. Set one or the other.", nameof(options));
        }

        OnModelCreating(_model);
        var storage = options.ToStorageOptions();
        _database = options.OpenStorage is { } open ? DocumentDatabase.Open(open(storage))
            : options.InMemory ? DocumentDatabase.OpenInMemory(storage)
            : DocumentDatabase.Open(options.Path!, storage);
        try
        {
            FieldDictionary = _database.Fields;
            _facade = new DatabaseFacade(this, _database.Storage.Options.Durability == Durability.InMemory ? null : _database.Storage.Path);
            CreateCollections();
            EnsureSchema(_database);
        }
        catch
        {
            _database.Dispose();
            throw;
        }
    }

    /// <summary>The database's field names and their ids, shared by every mapper of this context.</summary>
    public BsonFieldDictionary FieldDictionary { get; }

    /// <summary>
    /// The database underneath: its files, checkpoint, consistency check, statistics, backup,
    /// health, and the schemaless collections (<see cref="DatabaseFacade.GetCollection"/>).
    /// </summary>
    public DatabaseFacade Database
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _facade ?? throw (_store is null ? NoDatabase() : NotEmbedded());
        }
    }

    /// <summary>The server store when the context was opened with one (<c>UsePostgreSql</c>), else null.</summary>
    internal Providers.IDocumentStore? Store => _store;

    /// <summary>The engine-level database, for this assembly, the CLI, tests and benchmarks.</summary>
    internal DocumentDatabase Engine
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _database ?? throw (_store is null ? NoDatabase() : NotEmbedded());
        }
    }

    /// <summary>
    /// Declares collection names and indexes. Called once, before the database is opened; the
    /// default declares nothing.
    /// </summary>
    protected virtual void OnModelCreating(ModelBuilder model)
    {
    }

    /// <summary>
    /// Creates the collection properties. Implemented by the source generator; an override calls
    /// the base first, so collections of a base context are created too.
    /// </summary>
    protected virtual void CreateCollections()
    {
    }

    /// <summary>Called by generated code: the typed collection for a property, named by the model or the generated default.</summary>
    protected DocumentCollection<TId, T> CreateCollection<TId, T>(string defaultName, Bson.Mapping.IDocumentMapper<TId, T> mapper)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(mapper);
        var entity = _model.Find<T>();
        var name = entity?.CollectionName ?? ExistingDefaultName(defaultName, mapper.CollectionName);
        var collection = new DocumentCollection<TId, T>(this, name, mapper, entity?.Indexes ?? [], entity?.IdConverter as Bson.Mapping.IdConverter<TId>, entity?.VectorIndexes, entity?.ChangeFeed ?? Core.ChangeFeed.ChangeFeedMode.Off);
        _collections.Add(collection);
        return collection;
    }

    /// <summary>The one collection of <typeparamref name="T"/> documents, for resolving references to them.</summary>
    internal DocumentCollection<TId, T> CollectionOf<TId, T>()
        where T : class
    {
        DocumentCollection<TId, T>? match = null;
        foreach (var collection in _collections)
        {
            if (collection.DocumentType != typeof(T))
            {
                continue;
            }

            if (collection is not DocumentCollection<TId, T> typed)
            {
                throw new BLiteException($"A reference to {typeof(T).Name} has an id of type {typeof(TId).Name}, but collection '{collection.Name}' of {typeof(T).Name} has ids of type {collection.IdType.Name}.");
            }

            if (match is not null)
            {
                throw new BLiteException($"A reference to {typeof(T).Name} cannot be resolved: collections '{match.Name}' and '{typed.Name}' both hold {typeof(T).Name} documents.");
            }

            match = typed;
        }

        return match ?? throw new BLiteException($"A reference to {typeof(T).Name} cannot be resolved: {GetType().Name} has no collection of {typeof(T).Name} documents.");
    }

    /// <summary>
    /// Called by generated code for a collection whose id type BLite does not store natively: the
    /// converter configured by <see cref="EntityTypeBuilder{T}.HasIdConverter{TId, TKey}"/>.
    /// </summary>
    protected Bson.Mapping.IdConverter<TId> IdConverterFor<TId, T>(string propertyName)
        where T : class
    {
        var configured = _model.Find<T>()?.IdConverter;
        if (configured is Bson.Mapping.IdConverter<TId> converter)
        {
            return converter;
        }

        throw new BLiteException(configured is null
            ? $"{GetType().Name}.{propertyName}: {typeof(T).Name} has an id of type {typeof(TId).Name}, which BLite does not store natively; configure it in OnModelCreating with model.Entity<{typeof(T).Name}>().HasIdConverter(({typeof(TId).Name} id) => ..., (Guid key) => ...) converting to ObjectId, Guid, int, long or string."
            : $"{GetType().Name}.{propertyName}: the id converter configured for {typeof(T).Name} does not convert {typeof(TId).Name} ids.");
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        // The engine checkpoints on close when no writer is active; a transaction left open is
        // simply never committed, exactly as after a crash.
        _database?.Dispose();
        _store?.Dispose();
        GC.SuppressFinalize(this);
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// The default name of a collection: its property's name (<paramref name="defaultName"/>), except
    /// for a database created before that default, which holds the collection under the document
    /// type's name (<paramref name="formerDefaultName"/>) and has nothing under the property's name.
    /// That collection is kept and used as it is, so upgrading never orphans data; nothing is renamed.
    /// </summary>
    private string ExistingDefaultName(string defaultName, string formerDefaultName)
    {
        if (_database is null || string.Equals(defaultName, formerDefaultName, StringComparison.Ordinal))
        {
            return defaultName;
        }

        _existingCollections ??= new HashSet<string>(_database.GetCollectionNames(), StringComparer.Ordinal);
        var formerIsFree = !_collections.Exists(c => string.Equals(c.Name, formerDefaultName, StringComparison.Ordinal));
        return !_existingCollections.Contains(defaultName) && _existingCollections.Contains(formerDefaultName) && formerIsFree
            ? formerDefaultName
            : defaultName;
    }

    private static InvalidOperationException NoDatabase() =>
        new("This context was created for mapping only and has no database.");

    private static NotSupportedException NotEmbedded() =>
        new("This context runs on a server provider: the embedded engine's own operations (files, checkpoint, verify, statistics, backup, change feed, the collection catalog) do not apply to it; Database.GetCollection does.");

    private void EnsureSchema(DocumentDatabase database)
    {
        if (_collections.Count == 0 || database.Storage.Options.ReadOnly)
        {
            return;
        }

        var definitions = new List<CollectionDefinition>(_collections.Count);
        foreach (var collection in _collections)
        {
            definitions.Add(collection.Definition());
        }

        using var write = database.BeginWrite();
        database.EnsureSchema(write, definitions);
        write.Commit();
    }
}
