// Does not compile: llcoro cc must exit with clang's status and show clang's error.
int main() { return undeclared_name; }
