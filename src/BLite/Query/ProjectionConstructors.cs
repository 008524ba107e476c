using System.ComponentModel;

namespace BLite.Query;

/// <summary>
/// Typed projection constructors emitted by the source generator, keyed by document type, result
/// type and shape. A module initializer of the generated code registers one for every
/// <c>Project(o =&gt; new X(o.A, o.B) { C = o.D })</c> and <c>Select(...)</c> it sees whose
/// arguments are stored members at their declared types; a prepared projection looks its shape
/// up once and then builds each result without reflection or boxing.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class ProjectionConstructors
{
    /// <summary>
    /// Registers <paramref name="construct"/> for <paramref name="shape"/>:
    /// <c>new(A,B.C){D=E}</c>, the member paths handed to the constructor, then each initialized
    /// member with the member path assigned to it. The first registration of a shape wins (two
    /// call sites of one shape emit the same code).
    /// </summary>
    public static void Register<TDocument, TResult>(string shape, ProjectionConstructor<TResult> construct)
    {
        ArgumentNullException.ThrowIfNull(shape);
        ArgumentNullException.ThrowIfNull(construct);
        lock (Table<TDocument, TResult>.Entries)
        {
            Table<TDocument, TResult>.Entries.TryAdd(shape, construct);
        }
    }

    internal static ProjectionConstructor<TResult>? Find<TDocument, TResult>(string shape)
    {
        lock (Table<TDocument, TResult>.Entries)
        {
            return Table<TDocument, TResult>.Entries.GetValueOrDefault(shape);
        }
    }

    private static class Table<TDocument, TResult>
    {
        public static readonly Dictionary<string, ProjectionConstructor<TResult>> Entries = new(StringComparer.Ordinal);
    }
}
