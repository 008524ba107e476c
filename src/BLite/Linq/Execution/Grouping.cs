using System.Collections;

namespace BLite.Linq.Execution;

/// <summary>
/// One group of a GroupBy, seen only by the projection interpreter: <c>g.Key</c> reads
/// <see cref="Key"/>, and aggregate calls (<c>g.Count()</c>, <c>g.Sum(x => x.Total)</c>) enumerate
/// the elements. It is typed on the element only, because building an
/// <c>IGrouping&lt;TKey, T&gt;</c> for a key type known only at run time would need
/// <c>MakeGenericType</c>, which NativeAOT cannot promise.
/// </summary>
internal sealed class Grouping<T>(object? key) : IEnumerable<T>, IGroupingKey
{
    private readonly List<T> _elements = [];

    public object? Key { get; } = key;

    public void Add(T element) => _elements.Add(element);

    public IEnumerator<T> GetEnumerator() => _elements.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}

/// <summary>Lets the interpreter read the key of a group whose element type it does not know.</summary>
internal interface IGroupingKey
{
    object? Key { get; }
}
