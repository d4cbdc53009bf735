int empty;
