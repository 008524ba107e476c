using BLite.Core.Collections;

namespace BLite;

/// <summary>What the context needs from every typed collection, whatever its type arguments.</summary>
public abstract class TypedCollection
{
    private protected TypedCollection()
    {
    }

    /// <summary>The stored collection name.</summary>
    public abstract string Name { get; }

    internal abstract Type DocumentType { get; }

    internal abstract Type IdType { get; }

    /// <summary>The collection and its declared indexes with stored field paths, for schema creation on open.</summary>
    internal abstract CollectionDefinition Definition();

    /// <summary>Routes the collection's operations to a server store instead of the embedded engine.</summary>
    internal abstract void Attach(Providers.IDocumentStore store);
}
