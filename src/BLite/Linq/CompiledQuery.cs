using System.Linq.Expressions;
using BLite.Linq.Translation;

namespace BLite.Linq;

/// <summary>
/// Queries translated once and run many times with different arguments (docs/query.md,
/// "Compiled queries"). A plain LINQ query rebuilds its expression tree on every call (C# does
/// that) and BLite must match it against the shapes it knows; a compiled query skips both:
/// <code>
/// static readonly Func&lt;ShopContext, string, IEnumerable&lt;ObjectId&gt;&gt; AccountsOfCity =
///     CompiledQuery.Compile((ShopContext db, string city) =&gt; db.Accounts.Query().Where(a =&gt; a.City == city).Select(a =&gt; a.Id));
/// foreach (var id in AccountsOfCity(db, "Oslo")) { ... }
/// </code>
/// </summary>
/// <remarks>
/// The lambda's body is LINQ operators over a source that depends on the context alone (a
/// collection's <c>Query()</c>), resolved once per context instance; the query is translated once
/// per source and its plan follows index changes as any query's does. Parameters may appear
/// wherever a captured variable may; a value the lambda captures is read once, when the query is
/// compiled. A parameter may not decide a condition that does not read the document (a bool
/// decides the query's shape): that is refused when compiling. Results are exactly those of the
/// same plain LINQ query. Nothing is compiled to IL, so it works under NativeAOT. The delegates are
/// safe to call from several threads, each with its own context.
/// </remarks>
public static class CompiledQuery
{
    /// <summary>A query returning a sequence, without parameters.</summary>
    public static Func<TContext, IEnumerable<TResult>> Compile<TContext, TResult>(Expression<Func<TContext, IQueryable<TResult>>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return context => Sequence<TContext, TResult>(template, context, []);
    }

    /// <summary>A query returning a sequence, with one parameter.</summary>
    public static Func<TContext, TParam1, IEnumerable<TResult>> Compile<TContext, TParam1, TResult>(
        Expression<Func<TContext, TParam1, IQueryable<TResult>>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return (context, first) => Sequence<TContext, TResult>(template, context, [first]);
    }

    /// <summary>A query returning a sequence, with two parameters.</summary>
    public static Func<TContext, TParam1, TParam2, IEnumerable<TResult>> Compile<TContext, TParam1, TParam2, TResult>(
        Expression<Func<TContext, TParam1, TParam2, IQueryable<TResult>>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return (context, first, second) => Sequence<TContext, TResult>(template, context, [first, second]);
    }

    /// <summary>A query returning a sequence, with three parameters.</summary>
    public static Func<TContext, TParam1, TParam2, TParam3, IEnumerable<TResult>> Compile<TContext, TParam1, TParam2, TParam3, TResult>(
        Expression<Func<TContext, TParam1, TParam2, TParam3, IQueryable<TResult>>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return (context, first, second, third) => Sequence<TContext, TResult>(template, context, [first, second, third]);
    }

    /// <summary>A query returning one value (Count, Any, First, Sum...), without parameters.</summary>
    public static Func<TContext, TResult> Compile<TContext, TResult>(Expression<Func<TContext, TResult>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return context => Single<TContext, TResult>(template, context, []);
    }

    /// <summary>A query returning one value, with one parameter.</summary>
    public static Func<TContext, TParam1, TResult> Compile<TContext, TParam1, TResult>(Expression<Func<TContext, TParam1, TResult>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return (context, first) => Single<TContext, TResult>(template, context, [first]);
    }

    /// <summary>A query returning one value, with two parameters.</summary>
    public static Func<TContext, TParam1, TParam2, TResult> Compile<TContext, TParam1, TParam2, TResult>(
        Expression<Func<TContext, TParam1, TParam2, TResult>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return (context, first, second) => Single<TContext, TResult>(template, context, [first, second]);
    }

    /// <summary>A query returning one value, with three parameters.</summary>
    public static Func<TContext, TParam1, TParam2, TParam3, TResult> Compile<TContext, TParam1, TParam2, TParam3, TResult>(
        Expression<Func<TContext, TParam1, TParam2, TParam3, TResult>> query)
        where TContext : class
    {
        var template = new CompiledQueryTemplate<TContext>(query);
        return (context, first, second, third) => Single<TContext, TResult>(template, context, [first, second, third]);
    }

    /// <summary>Deferred, as a plain query is: it runs when enumerated (each time), not when the delegate is called.</summary>
    private static IEnumerable<TResult> Sequence<TContext, TResult>(CompiledQueryTemplate<TContext> template, TContext context, object?[] arguments)
        where TContext : class
    {
        var (provider, translated) = template.For(context);
        foreach (var row in provider.ExecuteSequence<TResult>(translated, template.Values(arguments)))
        {
            yield return row;
        }
    }

    private static TResult Single<TContext, TResult>(CompiledQueryTemplate<TContext> template, TContext context, object?[] arguments)
        where TContext : class
    {
        var (provider, translated) = template.For(context);
        return provider.Execute(translated, template.Values(arguments)) is { } result ? (TResult)result : default!;
    }
}
