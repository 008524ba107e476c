namespace BLite.Samples.WebApi;

internal static class Program
{
    private static void Main(string[] args) => TodoApi.Build(args).Run();
}
