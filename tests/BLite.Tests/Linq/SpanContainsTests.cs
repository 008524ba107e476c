namespace BLite.Tests.Linq;

/// <summary>
/// C# 14 binds <c>array.Contains(x)</c> to <c>MemoryExtensions.Contains(ReadOnlySpan&lt;T&gt;, T)</c>
/// through an implicit array-to-span conversion; these shapes must translate as IN like a list's Contains.
/// </summary>
public class SpanContainsTests(LinqFixture fixture) : IClassFixture<LinqFixture>
{
    private readonly LinqFixture _fixture = fixture;

    [Fact]
    public void Inline_arrays_of_scalars_translate_as_in()
    {
        _fixture.AssertSameIds(q => q.Where(o => new[] { "shipped", "pending" }.Contains(o.Status)));
        _fixture.AssertSameIds(q => q.Where(o => new[] { 3, 5, 8, 400 }.Contains(o.Id)));
        _fixture.AssertSameIds(q => q.Where(o => new[] { 2, 4 }.Contains(o.Quantity) && o.Paid));
        _fixture.AssertSameIds(q => q.Where(o => new[] { OrderKind.Internal }.Contains(o.Kind)));
        _fixture.AssertSameIds(q => q.Where(o => new[] { 1L, 7L, 9L }.Contains(o.Big)));
        _fixture.AssertSameIds(q => q.Where(o => !new[] { "shipped" }.Contains(o.Status)));
    }

    [Fact]
    public void Captured_arrays_and_casts_to_span_translate_as_in()
    {
        var statuses = new[] { "shipped", "cancelled" };
        var ids = new[] { 1, 2, 3, 40 };
        _fixture.AssertSameIds(q => q.Where(o => statuses.Contains(o.Status)));
        _fixture.AssertSameIds(q => q.Where(o => ids.Contains(o.Id)));
        _fixture.AssertSameIds(q => q.Where(o => ((ReadOnlySpan<int>)ids).Contains(o.Id)));
    }
}
