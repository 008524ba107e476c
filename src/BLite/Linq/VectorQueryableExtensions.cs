using System.Linq.Expressions;
using System.Reflection;

namespace BLite.Linq;

/// <summary>A nearest-neighbour result with its distance to the query vector (smaller is nearer; see <see cref="VectorMetric"/>).</summary>
public sealed record VectorMatch<T>(T Document, float Distance);

/// <summary>
/// Nearest-neighbour search in LINQ: <c>Query().Where(n =&gt; n.Folder == "work").NearestTo(n =&gt; n.Embedding, q, k: 10)</c>
/// returns the k nearest matching documents, nearest first, through the member's vector index
/// (see docs/vector.md). <c>.WithDistance()</c> pairs each with its distance; <c>Select</c>,
/// <c>Skip</c> and <c>Take</c> may follow; <c>Explain()</c> shows the vector plan.
/// </summary>
public static class VectorQueryableExtensions
{
    /// <param name="ef">The HNSW search beam (default 64, at least <paramref name="k"/>): larger finds more of the true neighbours, slower.</param>
    public static IQueryable<T> NearestTo<T>(this IQueryable<T> source, Expression<Func<T, float[]?>> vector, float[] queryVector, int k, int? ef = null) =>
        Nearest(source, new Func<IQueryable<T>, Expression<Func<T, float[]?>>, float[], int, int?, IQueryable<T>>(NearestTo).Method, vector, queryVector, k, ef);

    /// <inheritdoc cref="NearestTo{T}(IQueryable{T}, Expression{Func{T, float[]}}, float[], int, int?)"/>
    public static IQueryable<T> NearestTo<T>(this IQueryable<T> source, Expression<Func<T, ReadOnlyMemory<float>>> vector, float[] queryVector, int k, int? ef = null) =>
        Nearest(source, new Func<IQueryable<T>, Expression<Func<T, ReadOnlyMemory<float>>>, float[], int, int?, IQueryable<T>>(NearestTo).Method, vector, queryVector, k, ef);

    /// <summary>Each result of a <c>NearestTo</c> query with its distance.</summary>
    public static IQueryable<VectorMatch<T>> WithDistance<T>(this IQueryable<T> source)
    {
        ArgumentNullException.ThrowIfNull(source);
        return source.Provider.CreateQuery<VectorMatch<T>>(Expression.Call(new Func<IQueryable<T>, IQueryable<VectorMatch<T>>>(WithDistance).Method, source.Expression));
    }

    private static IQueryable<T> Nearest<T>(IQueryable<T> source, MethodInfo method, LambdaExpression vector, float[] queryVector, int k, int? ef)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(vector);
        ArgumentNullException.ThrowIfNull(queryVector);
        ArgumentOutOfRangeException.ThrowIfLessThan(k, 1);
        return source.Provider.CreateQuery<T>(Expression.Call(method, source.Expression, Expression.Quote(vector),
            Expression.Constant(queryVector), Expression.Constant(k), Expression.Constant(ef, typeof(int?))));
    }
}
